import type { Db, Executor } from '../../db/connection.ts';
import type { Actor } from '../../auth/credentials.ts';
import { bool } from '../../lib/json.ts';
import { mergeIntoTodaysResponse, todaysStandups } from '../checkins/standup.ts';
import type { ActiveStandup } from '../checkins/standup.ts';
import type { StandupUpdateInput } from './schema.ts';
import { answersOf } from '../checkins/response-parts.ts';
import { isAnswered } from '../checkins/answer-rules.ts';
import type { QuestionRow } from '../../db/tables.ts';

export interface AttachedFollowup {
  standup: ActiveStandup;
  action: 'created' | 'updated';
  /** Every required question answered after the update; else the required ones still unanswered. */
  completed: boolean;
  unanswered: QuestionRow[];
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
 * already gets the lines appended; one without a text question is left alone. The update counts as the day's
 * answer once every required question has one; until then the check-in stays pending (GET /v1/cli/status/).
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
      if (!merged) continue;
      // A merge may leave required questions unanswered (it only adds lines): the day is not answered until they
      // are, and the answer says which, so the person can finish it (rollcall checkins today, or PUT …/responses/).
      const completed = bool(merged.response.response_completed);
      const answers = completed ? [] : await answersOf(trx, merged.response);
      const given = new Map(answers.map((a) => [a.uuid, a.response]));
      const unanswered = completed ? [] : standup.questions.filter((q) => bool(q.required) && !isAnswered(given.get(q.uuid)));
      attached.push({ standup, action: merged.created ? 'created' : 'updated', completed, unanswered });
    }
    return attached;
  });
}
