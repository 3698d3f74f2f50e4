import type { Executor } from '../../db/connection.ts';
import { withParts } from '../checkins/response-parts.ts';
import type { Answer } from '../checkins/response-parts.ts';
import { answerWords } from '../checkins/question-kinds.ts';
import { readJson } from '../../lib/json.ts';
import type { BlockerRow, QuestionRow, ResponseRow } from '../../db/tables.ts';

/*
 * What a prompt carries over from the person's earlier days (issue 36 items 3 and 4): their answers of the last
 * day they answered ("Last time", as Status Hero shows previous goals) and the blockers they reported that are
 * still open ("Still blocked by …?"). Read for a whole slot of people at once when asking, or for one person by
 * the answer page and the chat forms.
 */

export interface PreviousAnswers {
  date: string;
  answers: Map<string, Answer['response']>;
}

export interface CarryOver {
  previous: PreviousAnswers | null;
  blockers: BlockerRow[];
}

/** Each person's answers of the last day before `date` they answered this check-in (parts folded in). */
export async function previousAnswers(db: Executor, checkinUuid: string, userUuids: string[], date: string): Promise<Map<string, PreviousAnswers>> {
  const found = new Map<string, PreviousAnswers>();
  for (let i = 0; i < userUuids.length; i += 500) {
    const batch = userUuids.slice(i, i + 500);
    const latest = db('checkin_responses').where('checkin_uuid', checkinUuid).whereIn('user_uuid', batch).andWhere('response_date', '<', date)
      .groupBy('user_uuid').select('user_uuid').max({ last: 'response_date' });
    const rows: ResponseRow[] = await db('checkin_responses as r')
      .join(latest.as('l'), (on) => on.on('l.user_uuid', '=', 'r.user_uuid').andOn('l.last', '=', 'r.response_date'))
      .where('r.checkin_uuid', checkinUuid)
      .select('r.*');
    for (const row of await withParts(db, rows)) {
      found.set(row.user_uuid, { date: row.response_date, answers: new Map(readJson<Answer[]>(row.answers, []).map((a) => [a.uuid, a.response])) });
    }
  }
  return found;
}

/** Each person's blockers of this check-in still open, reported before `date`, oldest first. */
export async function openBlockers(db: Executor, checkinUuid: string, userUuids: string[], date: string): Promise<Map<string, BlockerRow[]>> {
  const found = new Map<string, BlockerRow[]>();
  for (let i = 0; i < userUuids.length; i += 500) {
    const rows: BlockerRow[] = await db('checkin_blockers').where('checkin_uuid', checkinUuid).whereIn('user_uuid', userUuids.slice(i, i + 500)).whereNull('resolved_at').andWhere('opened_on', '<', date);
    rows.sort((a, b) => (a.opened_at < b.opened_at ? -1 : a.opened_at > b.opened_at ? 1 : a.uuid < b.uuid ? -1 : 1));
    for (const row of rows) found.set(row.user_uuid, [...(found.get(row.user_uuid) ?? []), row]);
  }
  return found;
}

/** One person's carry-over for `date`. */
export async function carryOverOf(db: Executor, checkinUuid: string, userUuid: string, date: string): Promise<CarryOver> {
  const [previous, blockers] = [await previousAnswers(db, checkinUuid, [userUuid], date), await openBlockers(db, checkinUuid, [userUuid], date)];
  return { previous: previous.get(userUuid) ?? null, blockers: blockers.get(userUuid) ?? [] };
}

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** "Still blocked by …?" for a blocker. */
export const stillBlocked = (b: Pick<BlockerRow, 'text' | 'opened_on'>): string => `Still blocked by "${cut(b.text.replace(/\s+/g, ' '), 200)}" (since ${b.opened_on})?`;

/** What the person answered to `q` last time, in words, or null. */
export function lastTime(q: QuestionRow, previous: PreviousAnswers | null): string | null {
  const value = previous?.answers.get(q.uuid);
  return value === undefined ? null : cut(answerWords(q, value), 300);
}

/** The carry-over as lines of text, for a prompt's message: the open blockers, then last time's answers. */
export function carryOverLines(questions: QuestionRow[], carry: CarryOver): string[] {
  const lines = carry.blockers.map(stillBlocked);
  if (carry.blockers.length) lines.push('Resolve a blocker on the answer page, or answer the blocker question with "none".');
  const last = questions.flatMap((q) => {
    const said = lastTime(q, carry.previous);
    return said === null ? [] : [`${q.question} — ${said.replace(/\n+/g, ' ')}`];
  });
  if (carry.previous && last.length) lines.push(`Last time (${carry.previous.date}):`, ...last);
  return lines;
}
