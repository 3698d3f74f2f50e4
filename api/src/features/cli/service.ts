import type { Db, Executor } from '../../db/connection.ts';
import type { Actor } from '../../auth/credentials.ts';
import { bool } from '../../lib/json.ts';
import { mergeIntoTodaysResponse, todaysStandups } from '../checkins/standup.ts';
import type { ActiveStandup } from '../checkins/standup.ts';
import type { StandupUpdateInput } from './schema.ts';

export interface AttachedFollowup {
  standup: ActiveStandup;
  action: 'created' | 'updated';
}

/**
 * The check-ins waiting for the caller's answer today (each in its own time zone): those they take part in,
 * scheduled today, whose response for that day is missing or not complete.
 */
export async function pendingCheckins(db: Executor, actor: Actor, now: Date): Promise<ActiveStandup[]> {
  const today = await todaysStandups(db, actor.user, now);
  if (today.length === 0) return [];
  const answered = await db('checkin_responses')
    .where({ user_uuid: actor.user.uuid })
    .whereIn('checkin_uuid', today.map((s) => s.checkin.uuid))
    .select('checkin_uuid', 'response_date', 'response_completed');
  const done = new Set(answered.filter((r) => bool(r.response_completed)).map((r) => `${r.checkin_uuid} ${r.response_date}`));
  return today.filter((s) => !done.has(`${s.checkin.uuid} ${s.date}`));
}

/**
 * A stand-up update from the terminal, written into each of the caller's check-ins scheduled today (CONTRACT §8):
 * `done` into the first question that is not about blockers, `doing` into the second, `blocked` into the blocker
 * question, `message` into the first (the co-author merge of CONTRACT §6, without a suffix). A check-in answered
 * already gets the lines appended; one without a text question is left alone.
 */
export function postStandupUpdate(db: Db, actor: Actor, input: StandupUpdateInput, now: Date): Promise<AttachedFollowup[]> {
  return db.transaction(async (trx) => {
    const attached: AttachedFollowup[] = [];
    for (const standup of await todaysStandups(trx, actor.user, now)) {
      const merged = await mergeIntoTodaysResponse(trx, {
        userUuid: actor.user.uuid,
        checkin: standup,
        lines: { completed: input.done, in_progress: input.doing, blockers: input.blocked, content: input.message },
        suffix: '',
        now,
        author: actor.user,
      });
      if (merged) attached.push({ standup, action: merged.created ? 'created' : 'updated' });
    }
    return attached;
  });
}
