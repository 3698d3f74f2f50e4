import type { Executor } from '../../db/connection.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { bool } from '../../lib/json.ts';
import { localDate } from '../../lib/dates.ts';
import { iso } from '../../lib/time.ts';
import { fullName } from '../../lib/names.ts';
import { recordEvent } from '../webhooks/events.ts';
import { isAnswered, signalsIssue } from './answer-rules.ts';
import { answerWords, kindOf, visibleQuestions } from './question-kinds.ts';
import type { Answer, AnswerValue } from './response-parts.ts';
import type { ParticipantUser } from './repository.ts';
import type { BlockerRow, CheckinRow, QuestionFields, QuestionRow, ResponseRow } from '../../db/tables.ts';

/*
 * Blockers followed up (issue 36). A response whose blocker question says there is one opens a blocker: the
 * person, the words, the day. It stays open, carried into the person's next prompts ("Still blocked by …?"),
 * until they resolve it (on the answer page, in chat, by answering the blocker question with "none" on a later
 * day, or POST …/blockers/{b}/resolve/) or a manager does. The same words reported again while open are the same
 * blocker. Events: checkin.blocker.reported and checkin.blocker.resolved.
 */

export type BlockerEvent = 'checkin.blocker.reported' | 'checkin.blocker.resolved';

/** Whole days from `from` to `to` (YYYY-MM-DD). */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** Days a blocker has been open: to its resolution, or to the check-in's today. */
export const daysOpen = (row: Pick<BlockerRow, 'opened_on' | 'resolved_on'>, today: string): number => Math.max(0, daysBetween(row.opened_on, row.resolved_on ?? today));

export function blockerEventPayload(checkin: CheckinRow, row: BlockerRow, person: ParticipantUser | null, now: Date) {
  const anonymous = bool(checkin.is_anonymous);
  return {
    uuid: row.uuid,
    id: row.uuid,
    followup: { uuid: checkin.uuid, id: checkin.uuid, name: checkin.name },
    is_anonymous: anonymous,
    user: anonymous || !person ? null : { uuid: person.uuid, full_name: fullName(person), email: person.email },
    question: { uuid: row.question_uuid, question: row.question },
    text: row.text,
    state: row.resolved_at ? 'resolved' : 'open',
    opened_on: row.opened_on,
    opened_at: iso(row.opened_at),
    resolved_on: row.resolved_on,
    resolved_at: iso(row.resolved_at),
    days_open: daysOpen(row, localDate(now, checkin.timezone)),
  };
}

async function recordBlockerEvent(db: Executor, event: BlockerEvent, checkin: CheckinRow, row: BlockerRow, person: ParticipantUser | null, now: Date): Promise<void> {
  await recordEvent(db, { organizationUuid: checkin.organization_uuid, event, payload: async () => blockerEventPayload(checkin, row, person, now) }, now);
}

/** The same words, whatever their case and spacing. */
const sameWords = (a: string, b: string) => a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * What a blocker answer reports, in words: a text answer as written; otherwise the answer to the question shown
 * because of it ("What blocks you?" after "Blocked? yes") when there is one, else the question and its answer.
 * Null when a follow-up that is itself a blocker question reports it instead.
 */
function reportedWords(q: QuestionFields, value: AnswerValue, asked: QuestionFields[], answers: Map<string, AnswerValue>): string | null {
  if (typeof value === 'string') return value.trim().slice(0, 10_000);
  const followUp = asked.find((f) => kindOf(f).showIf?.question_index === q.position && typeof answers.get(f.uuid) === 'string' && isAnswered(answers.get(f.uuid)));
  if (followUp && bool(followUp.is_blocker)) return null;
  if (followUp) return (answers.get(followUp.uuid) as string).trim().slice(0, 10_000);
  return `${q.question}: ${answerWords(q, value)}`;
}

/** Resolves `row` now (in `trx`), with its event; `by` is who said so. */
export async function resolveBlockerRow(trx: Executor, checkin: CheckinRow, row: BlockerRow, by: string | null, person: ParticipantUser | null, now: Date): Promise<BlockerRow> {
  const resolved = { ...row, resolved_at: now.toISOString(), resolved_on: localDate(now, checkin.timezone), resolved_by_uuid: by };
  await trx('checkin_blockers').where({ uuid: row.uuid }).whereNull('resolved_at').update({ resolved_at: resolved.resolved_at, resolved_on: resolved.resolved_on, resolved_by_uuid: by });
  await recordBlockerEvent(trx, 'checkin.blocker.resolved', checkin, resolved, person, now);
  return resolved;
}

/**
 * After a response was written (saveResponse, in its transaction): each blocker question it answers opens a
 * blocker (or, edited the same day, changes the one it opened), and an answer saying there is none resolves the
 * one this response had opened and the person's blockers of that question from earlier days.
 */
export async function followBlockers(
  trx: Executor, params: { checkin: CheckinRow; questions: QuestionRow[]; row: ResponseRow; answers: Answer[]; author: ParticipantUser | null }, now: Date,
): Promise<void> {
  const { checkin, row } = params;
  const blockerQuestions = params.questions.filter((q) => bool(q.is_blocker));
  if (blockerQuestions.length === 0) return;
  const answers = new Map(params.answers.map((a) => [a.uuid, a.response]));
  const asked = visibleQuestions(params.questions, answers);
  const shown = new Set(asked.map((q) => q.uuid));
  const mine: BlockerRow[] = await trx('checkin_blockers').where({ checkin_uuid: checkin.uuid, user_uuid: row.user_uuid }).where((w) => w.whereNull('resolved_at').orWhere('response_uuid', row.uuid));
  for (const q of blockerQuestions) {
    const value = shown.has(q.uuid) ? answers.get(q.uuid) : undefined;
    const own = mine.find((b) => b.response_uuid === row.uuid && b.question_uuid === q.uuid);
    const words = value !== undefined && signalsIssue(value) ? reportedWords(q, value, asked, answers) : null;
    if (words) {
      if (own) {
        if (!own.resolved_at && own.text !== words) await trx('checkin_blockers').where({ uuid: own.uuid }).update({ text: words });
        continue;
      }
      // Still blocked by the same thing: the blocker reported on an earlier day stays the one.
      if (mine.some((b) => !b.resolved_at && b.question_uuid === q.uuid && sameWords(b.text, words))) continue;
      const opened: BlockerRow = {
        uuid: uuidv7(now.getTime()), organization_uuid: checkin.organization_uuid, checkin_uuid: checkin.uuid, user_uuid: row.user_uuid, question_uuid: q.uuid,
        question: q.question, response_uuid: row.uuid, text: words, opened_on: row.response_date, opened_at: now.toISOString(),
        resolved_on: null, resolved_at: null, resolved_by_uuid: null, alerted_at: null,
      };
      await trx('checkin_blockers').insert(opened);
      mine.push(opened);
      await recordBlockerEvent(trx, 'checkin.blocker.reported', checkin, opened, params.author, now);
      continue;
    }
    // Taken back the same day: the blocker this response had opened is resolved.
    if (own && !own.resolved_at) await resolveBlockerRow(trx, checkin, own, row.user_uuid, params.author, now);
    // "None" on a later day answers "Still blocked by …?": the earlier ones of this question are resolved.
    if (value !== undefined && isAnswered(value)) {
      for (const earlier of mine.filter((b) => !b.resolved_at && b.question_uuid === q.uuid && b.opened_on < row.response_date)) {
        await resolveBlockerRow(trx, checkin, earlier, row.user_uuid, params.author, now);
      }
    }
  }
}

/** The blockers among `uuids` that are the person's own and open in this check-in, resolved (the answer page and chat: "Resolved"). */
export async function resolveOwnBlockers(trx: Executor, checkin: CheckinRow, person: ParticipantUser, uuids: string[], now: Date): Promise<number> {
  if (uuids.length === 0) return 0;
  const rows: BlockerRow[] = await trx('checkin_blockers').where({ checkin_uuid: checkin.uuid, user_uuid: person.uuid }).whereNull('resolved_at').whereIn('uuid', uuids.slice(0, 100));
  for (const row of rows) await resolveBlockerRow(trx, checkin, row, person.uuid, person, now);
  return rows.length;
}

/** A response reset (DELETE …/responses/): the blockers it opened and nobody resolved go with it. */
export async function dropBlockersOf(trx: Executor, responseUuid: string): Promise<void> {
  await trx('checkin_blockers').where({ response_uuid: responseUuid }).whereNull('resolved_at').delete();
  await trx('checkin_blockers').where({ response_uuid: responseUuid }).update({ response_uuid: null });
}

