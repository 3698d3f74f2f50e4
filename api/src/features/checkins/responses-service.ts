import type { Executor } from '../../db/connection.ts';
import { badRequest, conflict, forbidden, invalidFilter, notFound } from '../../lib/errors.ts';
import type { PageRequest } from '../../lib/page.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { bool, readJson, writeJson } from '../../lib/json.ts';
import { iso } from '../../lib/time.ts';
import type { Actor } from '../../auth/credentials.ts';
import { recordEvent } from '../webhooks/events.ts';
import { can, responsesReadBy } from '../../auth/policy.ts';
import { fullName } from '../users/repository.ts';
import { localDate } from '../../lib/dates.ts';
import { getVisibleCheckin, isParticipant, questionsOf, visibleCheckins } from './repository.ts';
import type { ParticipantUser } from './repository.ts';
import type { EditResponseInput, ResponseInput } from './schema.ts';
import { answersOf, dropParts, partsBasis, withParts } from './response-parts.ts';
import type { Answer } from './response-parts.ts';
import { applyAnswers, evaluate, requireAnswered } from './answer-rules.ts';
import { dropBlockersOf, followBlockers } from './blockers.ts';
import type { AnswerInput } from './answer-rules.ts';
import type { CheckinRow, QuestionRow, ResponseRow } from '../../db/tables.ts';

export type { Answer, AnswerValue } from './response-parts.ts';

/** A response with its author's names (never shown for anonymous check-ins). */
export interface ResponseView extends ResponseRow {
  first_name: string;
  last_name: string;
  email: string;
}

/** The event payload of followups.response.* (CONTRACT §7); an anonymous check-in's carries no user. */
export function responseEventPayload(checkin: CheckinRow, row: ResponseRow, author: ParticipantUser | null, answers?: Answer[]) {
  const anonymous = bool(checkin.is_anonymous);
  return {
    uuid: row.uuid,
    id: row.uuid,
    followup: { uuid: checkin.uuid, id: checkin.uuid, name: checkin.name },
    is_anonymous: anonymous,
    user: anonymous || !author ? null : { uuid: author.uuid, full_name: fullName(author), email: author.email },
    response_date: row.response_date,
    response_completed: bool(row.response_completed),
    has_issue: bool(row.has_issue),
    responses: answers ?? readJson<Answer[]>(row.answers, []),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export type ResponseEvent = 'followups.response.completed' | 'followups.response.updated' | 'followups.response.deleted';

/**
 * Records a response's event. `answers` (the response's whole answers, parts folded in) may be a function: the
 * payload is then built only if a webhook subscription or an event workflow receives the event.
 */
export async function recordResponseEvent(
  db: Executor, event: ResponseEvent, checkin: CheckinRow, row: ResponseRow, now: Date, knownAuthor?: ParticipantUser, answers?: Answer[] | (() => Promise<Answer[]>),
): Promise<void> {
  const payload = async () => {
    const author: ParticipantUser | undefined = knownAuthor ?? (await db('users').where({ uuid: row.user_uuid }).first('uuid', 'first_name', 'last_name', 'email'));
    return responseEventPayload(checkin, row, author ?? null, typeof answers === 'function' ? await answers() : answers);
  };
  await recordEvent(db, { organizationUuid: checkin.organization_uuid, event, payload }, now);
}

/**
 * Writes a new response or replaces the answers of an existing one (whose parts `answers` must already include:
 * they are dropped), with its event, in the caller's transaction.
 */
export async function saveResponse(
  db: Executor,
  params: { checkin: CheckinRow; questions: QuestionRow[]; userUuid: string; date: string; answers: Answer[]; lastQuestionIndex?: number; existing?: ResponseRow; author?: ParticipantUser },
  now: Date,
): Promise<ResponseRow> {
  const { completed, hasIssue } = evaluate(params.questions, params.answers);
  const stamp = now.toISOString();
  const basis = partsBasis(params.questions);
  let row: ResponseRow;
  if (params.existing) {
    row = {
      ...params.existing,
      answers: writeJson(params.answers),
      response_completed: completed,
      has_issue: hasIssue,
      last_question_index: params.lastQuestionIndex ?? params.existing.last_question_index,
      updated_at: stamp,
      parts_basis: basis,
    };
    // `answers` holds what the parts added (the caller folded them in): they are dropped with the rewrite.
    await dropParts(db, row.uuid);
    await db('checkin_responses').where({ uuid: row.uuid }).update({
      answers: row.answers, response_completed: completed, has_issue: hasIssue, last_question_index: row.last_question_index, updated_at: stamp, parts_basis: basis,
    });
  } else {
    row = {
      uuid: uuidv7(now.getTime()),
      organization_uuid: params.checkin.organization_uuid,
      checkin_uuid: params.checkin.uuid,
      user_uuid: params.userUuid,
      response_date: params.date,
      answers: writeJson(params.answers),
      response_completed: completed,
      has_issue: hasIssue,
      last_question_index: params.lastQuestionIndex ?? null,
      created_at: stamp,
      updated_at: stamp,
      parts_basis: basis,
    };
    await db('checkin_responses').insert(row);
  }
  await recordResponseEvent(db, params.existing ? 'followups.response.updated' : 'followups.response.completed', params.checkin, row, now, params.author, params.answers);
  await followBlockers(db, { checkin: params.checkin, questions: params.questions, row, answers: params.answers, author: params.author ?? null }, now);
  return row;
}

/**
 * A person's whole answers for one day, as they gave them on the web answer page or in an e-mail reply: a new
 * response, or their day's response rewritten. The same rules and events as POST and PUT …/responses/ (every
 * required question answered: IncompleteAnswer otherwise, before anything is written); the caller
 * (checkin-runs) has established who is answering and for which day from its grant.
 */
export async function answerForDay(
  db: Executor,
  params: { checkin: CheckinRow; questions: QuestionRow[]; author: ParticipantUser; date: string; responses: AnswerInput[]; inPart?: boolean },
  now: Date,
): Promise<{ row: ResponseRow; created: boolean }> {
  const { checkin, questions, author, date } = params;
  const answers = applyAnswers(questions, [], params.responses);
  // `inPart`: what a person gave before the day closed (a chat conversation left half-way when the report goes
  // out) is kept even with required questions unanswered; the day then does not count as answered.
  if (!params.inPart) requireAnswered(questions, answers, params.responses, null);
  const existing = await ownResponse(db, checkin.uuid, author.uuid, date);
  const row = await saveResponse(db, { checkin, questions, userUuid: author.uuid, date, answers, existing, author }, now);
  return { row, created: !existing };
}

/** The answering rules: participant, live check-in, and the day within the configured backfill/future window. */
async function answerableDay(db: Executor, actor: Actor, checkin: CheckinRow, requested: string | undefined, now: Date): Promise<string> {
  // Members and guests only see the check-ins they take part in; admins and managers see every one.
  if (can(actor, 'checkins.see_all') && !(await isParticipant(db, checkin.uuid, actor.user.uuid))) {
    throw forbidden('not_a_participant', 'You do not take part in this check-in.');
  }
  if (bool(checkin.is_archived)) throw badRequest('checkin_archived', 'This check-in is archived.');
  if (!bool(checkin.active)) throw badRequest('checkin_inactive', 'This check-in is paused.');
  const today = localDate(now, checkin.timezone);
  const date = requested ?? today;
  if (date < today && !bool(checkin.allow_past_responses)) {
    throw badRequest('previous_responses_are_not_allowed', 'This check-in does not take responses for past days.', { parameter: 'response_date', today });
  }
  if (date > today && !bool(checkin.allow_future_responses)) {
    throw badRequest('future_responses_are_not_allowed', 'This check-in does not take responses for future days.', { parameter: 'response_date', today });
  }
  if ((checkin.start_on && date < checkin.start_on) || (checkin.end_on && date > checkin.end_on)) {
    throw badRequest('outside_checkin_period', 'This day is outside the check-in\'s start_on and end_on.', { parameter: 'response_date' });
  }
  return date;
}

const ownResponse = (db: Executor, checkinUuid: string, userUuid: string, date: string): Promise<ResponseRow | undefined> =>
  db('checkin_responses').where({ checkin_uuid: checkinUuid, user_uuid: userUuid, response_date: date }).first();

/**
 * POST …/responses/: one response per user, check-in and local day (409 `response_already_exists`), answering
 * every required question (or those up to `last_question_index`: answer-rules.ts).
 */
export async function submitResponse(db: Executor, actor: Actor, checkinUuid: string, input: ResponseInput, now: Date) {
  return db.transaction(async (trx) => {
    const checkin = await getVisibleCheckin(trx, actor, checkinUuid);
    const date = await answerableDay(trx, actor, checkin, input.response_date, now);
    const existing = await ownResponse(trx, checkinUuid, actor.user.uuid, date);
    if (existing) {
      // A day answered in part (an agent's co-authored lines, or a client answering question by question) is
      // completed with PUT too: POST makes the day's one response.
      const detail = bool(existing.response_completed)
        ? `You already answered this check-in for ${date}; edit it with PUT.`
        : `Your answer to this check-in for ${date} is already started and not complete yet; add the rest with PUT.`;
      throw conflict('response_already_exists', detail, { uuid: existing.uuid, response_date: date });
    }
    const questions = await questionsOf(trx, checkinUuid);
    const answers = applyAnswers(questions, [], input.responses);
    requireAnswered(questions, answers, input.responses, input.last_question_index ?? null);
    const row = await saveResponse(trx, { checkin, questions, userUuid: actor.user.uuid, date, answers, lastQuestionIndex: input.last_question_index, author: actor.user }, now);
    return { checkin, row: { ...row, first_name: actor.user.first_name, last_name: actor.user.last_name, email: actor.user.email } as ResponseView };
  });
}

/**
 * PUT …/responses/: edits the caller's response for `response_date` (default today); the given answers replace
 * theirs, and the result answers every required question (up to `last_question_index`, given or stored).
 */
export async function editResponse(db: Executor, actor: Actor, checkinUuid: string, input: EditResponseInput, now: Date) {
  return db.transaction(async (trx) => {
    const checkin = await getVisibleCheckin(trx, actor, checkinUuid);
    const date = await answerableDay(trx, actor, checkin, input.response_date, now);
    const existing = await ownResponse(trx, checkinUuid, actor.user.uuid, date);
    if (!existing) throw notFound();
    const questions = await questionsOf(trx, checkinUuid);
    const answers = applyAnswers(questions, await answersOf(trx, existing), input.responses ?? []);
    requireAnswered(questions, answers, input.responses ?? [], input.last_question_index ?? existing.last_question_index ?? null);
    const row = await saveResponse(trx, { checkin, questions, userUuid: actor.user.uuid, date, answers, lastQuestionIndex: input.last_question_index, existing, author: actor.user }, now);
    return { checkin, row: { ...row, first_name: actor.user.first_name, last_name: actor.user.last_name, email: actor.user.email } as ResponseView };
  });
}

/** DELETE …/responses/?date_start=&date_end= (default today): resets the caller's own responses. */
export async function resetResponses(db: Executor, actor: Actor, checkinUuid: string, range: { from?: string; to?: string }, now: Date): Promise<number> {
  return db.transaction(async (trx) => {
    const checkin = await getVisibleCheckin(trx, actor, checkinUuid);
    const today = localDate(now, checkin.timezone);
    const from = range.from ?? range.to ?? today;
    const to = range.to ?? range.from ?? today;
    const rows: ResponseRow[] = await trx('checkin_responses')
      .where({ checkin_uuid: checkinUuid, user_uuid: actor.user.uuid })
      .andWhere('response_date', '>=', from)
      .andWhere('response_date', '<=', to);
    for (const row of rows) {
      // The event first: its answers fold in the parts, which the delete removes with the row.
      await recordResponseEvent(trx, 'followups.response.deleted', checkin, row, now, actor.user, () => answersOf(trx, row));
      await dropBlockersOf(trx, row.uuid);
      await trx('checkin_responses').where({ uuid: row.uuid }).delete();
    }
    return rows.length;
  });
}

export interface HistoryFilters {
  from?: string;
  to?: string;
  user?: string;
}

/**
 * GET …/responses/: newest first. Members and guests read only their own; admins and managers everyone's
 * (filter `user`). An anonymous check-in never names authors, so it also refuses a `user` filter naming
 * someone else. Index-backed: (checkin_uuid, response_date) and (checkin_uuid, user_uuid, response_date).
 */
/**
 * The check-in whose responses the caller reads: one they may see, or one they answered before they stopped
 * taking part in it (they still read their own answers there). Otherwise 404, as for an absent one.
 */
export async function readableCheckin(db: Executor, actor: Actor, checkinUuid: string): Promise<{ checkin: CheckinRow; participant: boolean }> {
  const managerView = can(actor, 'checkins.see_all');
  const visible: CheckinRow | undefined = await visibleCheckins(db, actor).andWhere('c.uuid', checkinUuid).first('c.*');
  // Others see only the check-ins they take part in.
  if (visible) return { checkin: visible, participant: !managerView || (await isParticipant(db, checkinUuid, actor.user.uuid)) };
  const answered: CheckinRow | undefined = await db('checkins')
    .where({ uuid: checkinUuid, organization_uuid: actor.organization.uuid })
    .whereExists((q) => q.select('uuid').from('checkin_responses').where({ checkin_uuid: checkinUuid, user_uuid: actor.user.uuid }))
    .first();
  if (!answered) throw notFound();
  return { checkin: answered, participant: false };
}

/** Whether the caller reads everyone's responses (and blockers) of the check-in, or only their own (`responsesReadBy`). */
export function readsEveryone(actor: Actor, checkin: CheckinRow, participant: boolean): boolean {
  const privacy = readJson<{ privacy?: string | null }>(checkin.settings, {}).privacy ?? null;
  return responsesReadBy(actor, { privacy }, participant) === 'all';
}

/** A check-in's responses, newest first, as far as the caller may read them (`responsesReadBy` in the policy). */
export async function listResponses(db: Executor, actor: Actor, checkinUuid: string, filters: HistoryFilters, page: PageRequest) {
  const { checkin, participant } = await readableCheckin(db, actor, checkinUuid);
  const anonymous = bool(checkin.is_anonymous);
  if (anonymous && filters.user && filters.user !== actor.user.uuid) {
    throw invalidFilter('user', 'This check-in is anonymous: responses cannot be filtered by author.');
  }
  const readsAll = readsEveryone(actor, checkin, participant);
  const userUuid = readsAll ? filters.user : actor.user.uuid;
  if (!readsAll && filters.user && filters.user !== actor.user.uuid) {
    // Another person's responses are not visible to this caller: the filter matches nothing.
    return { checkin, count: 0, rows: [] as ResponseView[] };
  }
  const filtered = () => {
    const query = db('checkin_responses as r').where('r.checkin_uuid', checkinUuid);
    if (userUuid) query.andWhere('r.user_uuid', userUuid);
    if (filters.from) query.andWhere('r.response_date', '>=', filters.from);
    if (filters.to) query.andWhere('r.response_date', '<=', filters.to);
    return query;
  };
  const [{ count }] = await filtered().count({ count: '*' });
  const rows: ResponseView[] = await filtered()
    .join('users as u', 'u.uuid', 'r.user_uuid')
    .select('r.*', 'u.first_name', 'u.last_name', 'u.email')
    .orderBy('r.response_date', 'desc')
    .orderBy('r.uuid', 'desc')
    .limit(page.limit)
    .offset(page.offset);
  return { checkin, count: Number(count), rows: await withParts(db, rows) };
}
