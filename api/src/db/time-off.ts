import type { Executor } from './connection.ts';
import { ValidationFailed } from '../lib/errors.ts';
import { uuidv7 } from '../lib/ids.ts';
import { localDate } from '../lib/dates.ts';

/**
 * Time off (migration 0820): periods of local days (inclusive) a person is away, set with PATCH /v1/users/{uuid}/
 * `time_off`. Check-ins neither ask nor remind them then and list them as away in the report; send-message skips
 * them with skip_users_on_time_off. Here, below the features, because all three read it.
 */
export interface TimeOff {
  start: string;
  end: string;
}

/** A person's periods, in order. */
export async function timeOffOf(db: Executor, userUuid: string): Promise<TimeOff[]> {
  const rows: { start_on: string; end_on: string }[] = await db('user_time_off').where({ user_uuid: userUuid }).select('start_on', 'end_on');
  return rows.map((r) => ({ start: r.start_on, end: r.end_on })).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
}

/** Replaces a person's periods (PATCH /v1/users/{uuid}/ `time_off`); each ends on or after its start. */
export async function replaceTimeOff(db: Executor, user: { uuid: string; organization_uuid: string }, periods: TimeOff[], now: Date): Promise<void> {
  const problems: Record<string, string[]> = {};
  periods.forEach((p, i) => {
    if (p.end < p.start) problems[`time_off.${i}.end`] = ['Must be on or after start.'];
  });
  if (Object.keys(problems).length) throw new ValidationFailed(problems);
  await db('user_time_off').where({ user_uuid: user.uuid }).delete();
  if (periods.length) {
    await db('user_time_off').insert(periods.map((p) => ({ uuid: uuidv7(now.getTime()), organization_uuid: user.organization_uuid, user_uuid: user.uuid, start_on: p.start, end_on: p.end, created_at: now.toISOString() })));
  }
}

/** Of these people, those away today (each in their own time zone, else `fallbackZone`). */
export async function awayToday(db: Executor, people: { uuid: string; timezone: string | null }[], fallbackZone: string, now: Date): Promise<Set<string>> {
  const away = new Set<string>();
  if (people.length === 0) return away;
  const rows: { user_uuid: string; start_on: string; end_on: string }[] = await db('user_time_off').whereIn('user_uuid', people.map((p) => p.uuid)).select('user_uuid', 'start_on', 'end_on');
  const zoneOf = new Map(people.map((p) => [p.uuid, p.timezone ?? fallbackZone]));
  for (const row of rows) {
    const today = localDate(now, zoneOf.get(row.user_uuid)!);
    if (row.start_on <= today && today <= row.end_on) away.add(row.user_uuid);
  }
  return away;
}

/** Of `userUuids`, those on time off on `date` (their local day). */
export async function awayOn(db: Executor, userUuids: string[], date: string): Promise<Set<string>> {
  const away = new Set<string>();
  for (let i = 0; i < userUuids.length; i += 500) {
    const rows: { user_uuid: string }[] = await db('user_time_off')
      .whereIn('user_uuid', userUuids.slice(i, i + 500))
      .andWhere('end_on', '>=', date)
      .andWhere('start_on', '<=', date)
      .select('user_uuid');
    for (const row of rows) away.add(row.user_uuid);
  }
  return away;
}
