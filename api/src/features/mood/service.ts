import type { Db, Executor } from '../../db/connection.ts';
import { badRequest } from '../../lib/errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { Actor } from '../../auth/credentials.ts';
import { localDate } from '../../lib/dates.ts';
import { can } from '../../auth/policy.ts';
import type { TrackMoodInput } from './schema.ts';
import type { MoodRow } from '../../db/tables.ts';

/** "Today" for a person: their own time zone, else the organization's. */
export const personalToday = (actor: Actor, now: Date): string => localDate(now, actor.user.timezone ?? actor.organization.timezone);

export interface MoodReading {
  date: string;
  entry: MoodRow | null;
  summary: { count: number; average: number | null } | null;
}

export async function readMood(db: Executor, actor: Actor, date: string | undefined, now: Date): Promise<MoodReading> {
  const day = date ?? personalToday(actor, now);
  const entry: MoodRow | undefined = await db('mood_entries').where({ user_uuid: actor.user.uuid, date: day }).first();
  let summary: MoodReading['summary'] = null;
  if (can(actor, 'mood.see_summary')) {
    const [row] = await db('mood_entries').where({ organization_uuid: actor.organization.uuid, date: day }).count({ count: '*' }).avg({ average: 'score' });
    const count = Number(row.count);
    summary = { count, average: count ? Math.round(Number(row.average) * 100) / 100 : null };
  }
  return { date: day, entry: entry ?? null, summary };
}

/**
 * One mood per person and day; tracking again the same day replaces the score. In a transaction of its own: on
 * PostgreSQL a twin sent at the same moment that inserted first makes this one run again and replace (db/retry.ts).
 */
export function trackMood(db: Db, actor: Actor, input: TrackMoodInput, now: Date): Promise<{ row: MoodRow; created: boolean }> {
  return db.transaction((trx) => trackMoodInTransaction(trx, actor, input, now));
}

async function trackMoodInTransaction(db: Executor, actor: Actor, input: TrackMoodInput, now: Date): Promise<{ row: MoodRow; created: boolean }> {
  const today = personalToday(actor, now);
  const date = input.date ?? today;
  if (date > today) throw badRequest('future_responses_are_not_allowed', 'A mood cannot be tracked for a future day.', { parameter: 'date', today });
  const stamp = now.toISOString();
  const existing: MoodRow | undefined = await db('mood_entries').where({ user_uuid: actor.user.uuid, date }).first();
  if (existing) {
    await db('mood_entries').where({ uuid: existing.uuid }).update({ score: input.score, updated_at: stamp });
    return { row: { ...existing, score: input.score, updated_at: stamp }, created: false };
  }
  const row: MoodRow = { uuid: uuidv7(now.getTime()), organization_uuid: actor.organization.uuid, user_uuid: actor.user.uuid, date, score: input.score, created_at: stamp, updated_at: stamp };
  await db('mood_entries').insert(row);
  return { row, created: true };
}
