import type { Executor } from '../../db/connection.ts';
import { ValidationFailed, badRequest, conflict, forbidden, invalidFilter, notFound } from '../../lib/errors.ts';
import type { PageRequest } from '../../lib/page.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { readJson, writeJson } from '../../lib/json.ts';
import type { Actor } from '../../auth/credentials.ts';
import { questionsIn } from '../checkins/repository.ts';
import { applyAnswers } from '../checkins/answer-rules.ts';
import type { Answer } from '../checkins/responses-service.ts';
import { recordEvent } from '../webhooks/events.ts';
import { can } from '../../auth/policy.ts';
import { fullName } from '../users/repository.ts';
import { FORM_QUESTIONS, flag, getVisibleForm, isOwner, workflowOf } from './repository.ts';
import type { FormHistoryRow as HistoryRow, FormQuestionRow, FormResponseRow, FormRow } from '../../db/tables.ts';
export type { FormResponseRow };
import { allowedTransitions, initialState, isFinal } from './states.ts';
import type { FormResponseInput, TransitionRequest, TransitionRole } from './schema.ts';

type Person = { uuid: string; first_name: string; last_name: string; email: string };

/** A response with what presenting it needs: its author, history and the transitions the caller may make. */
export interface ResponseView {
  form: FormRow;
  row: FormResponseRow;
  author: Person | null;
  history: (HistoryRow & { actor: Person | null })[];
  allowed: string[];
}

/** The caller's roles on a response, for the transition rules. */
async function rolesOn(db: Executor, actor: Actor, form: FormRow, row: FormResponseRow): Promise<Set<TransitionRole>> {
  const roles = new Set<TransitionRole>();
  if (await isOwner(db, form.uuid, actor.user.uuid)) roles.add('owner');
  if (can(actor, 'forms.manage_all')) roles.add('admin');
  if (can(actor, 'forms.transition_as_manager')) roles.add('manager');
  if (row.user_uuid === actor.user.uuid) roles.add('respondent');
  return roles;
}

/** Owners and admins see every response of a form; everyone else their own. */
async function seesAll(db: Executor, actor: Actor, form: FormRow): Promise<boolean> {
  return can(actor, 'forms.manage_all') || (await isOwner(db, form.uuid, actor.user.uuid));
}

async function views(db: Executor, actor: Actor, form: FormRow, rows: FormResponseRow[]): Promise<ResponseView[]> {
  if (rows.length === 0) return [];
  const anonymous = flag(form.is_anonymous);
  const history: HistoryRow[] = await db('form_response_history').whereIn('response_uuid', rows.map((r) => r.uuid));
  history.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.uuid < b.uuid ? -1 : 1));
  const people = [...new Set([...rows.map((r) => r.user_uuid), ...history.map((h) => h.actor_uuid).filter((u): u is string => u !== null)])];
  const persons = new Map<string, Person>((await db('users').whereIn('uuid', people).select('uuid', 'first_name', 'last_name', 'email')).map((p: Person) => [p.uuid, p]));
  const workflow = workflowOf(form);
  const result: ResponseView[] = [];
  for (const row of rows) {
    result.push({
      form,
      row,
      author: anonymous ? null : (persons.get(row.user_uuid) ?? null),
      // On an anonymous form the author's own moves name nobody: they would name the author.
      history: history
        .filter((h) => h.response_uuid === row.uuid)
        .map((h) => ({ ...h, actor: h.actor_uuid === null || (anonymous && h.actor_uuid === row.user_uuid) ? null : (persons.get(h.actor_uuid) ?? null) })),
      allowed: allowedTransitions(workflow, row.current_state, await rolesOn(db, actor, form, row)),
    });
  }
  return result;
}

/** The `forms.response.*` event body; an anonymous form's names nobody (the dispatcher strips people again). */
function eventPayload(view: ResponseView, transition?: { from_state: string | null; to_state: string; note: string | null }) {
  const { form, row } = view;
  const anonymous = flag(form.is_anonymous);
  return {
    uuid: row.uuid,
    id: row.uuid,
    response_uuid: row.uuid,
    form_uuid: form.uuid,
    form: { uuid: form.uuid, name: form.name },
    is_anonymous: anonymous,
    user: anonymous || !view.author ? null : { uuid: view.author.uuid, full_name: fullName(view.author), email: view.author.email },
    responses: readJson<Answer[]>(row.answers, []),
    current_state: row.current_state,
    ...(transition ? { transition } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function record(db: Executor, event: 'forms.response.created' | 'forms.response.updated' | 'forms.response.deleted', view: ResponseView, now: Date, transition?: Parameters<typeof eventPayload>[1]) {
  await recordEvent(db, { organizationUuid: view.form.organization_uuid, event, payload: eventPayload(view, transition) }, now);
}

async function visibleResponse(db: Executor, actor: Actor, formUuid: string, uuid: string) {
  const form = await getVisibleForm(db, actor, formUuid);
  const row: FormResponseRow | undefined = await db('form_responses').where({ form_uuid: formUuid, uuid }).first();
  if (!row || (row.user_uuid !== actor.user.uuid && !(await seesAll(db, actor, form)))) throw notFound();
  return { form, row };
}

const locked = () => conflict('response_locked', 'This response is in a final state and can no longer change.');

async function submitFormResponseInTransaction(db: Executor, actor: Actor, formUuid: string, input: FormResponseInput, now: Date): Promise<ResponseView> {
  const form = await getVisibleForm(db, actor, formUuid);
  if (flag(form.is_archived)) throw badRequest('form_archived', 'This form is archived.');
  const questions = await questionsIn<FormQuestionRow>(db, FORM_QUESTIONS, formUuid);
  const answers = applyAnswers(questions, [], input.responses);
  const missing = questions.filter((q) => flag(q.required) && !answers.some((a) => a.uuid === q.uuid));
  if (missing.length) throw new ValidationFailed({ responses: [`Answer every required question: ${missing.map((q) => `#${q.position}`).join(', ')}.`] });
  const stamp = now.toISOString();
  const state = initialState(workflowOf(form));
  const row: FormResponseRow = { uuid: uuidv7(now.getTime()), organization_uuid: form.organization_uuid, form_uuid: formUuid, user_uuid: actor.user.uuid, answers: writeJson(answers), current_state: state, created_at: stamp, updated_at: stamp };
  await db('form_responses').insert(row);
  if (state) await db('form_response_history').insert({ uuid: uuidv7(now.getTime()), response_uuid: row.uuid, from_state: null, to_state: state, actor_uuid: actor.user.uuid, note: null, created_at: stamp });
  const [view] = await views(db, actor, form, [row]);
  await record(db, 'forms.response.created', view, now);
  return view;
}

/** In a transaction of its own (a savepoint when given one). */
export function submitFormResponse(db: Executor, actor: Actor, formUuid: string, input: FormResponseInput, now: Date): Promise<ResponseView> {
  return db.transaction((trx) => submitFormResponseInTransaction(trx, actor, formUuid, input, now));
}

export async function getFormResponse(db: Executor, actor: Actor, formUuid: string, uuid: string): Promise<ResponseView> {
  const { form, row } = await visibleResponse(db, actor, formUuid, uuid);
  return (await views(db, actor, form, [row]))[0];
}

/** PATCH: the author changes their answers (given ones replace theirs) until the response is in a final state. */
async function editFormResponseInTransaction(db: Executor, actor: Actor, formUuid: string, uuid: string, input: FormResponseInput, now: Date): Promise<ResponseView> {
  const { form, row } = await visibleResponse(db, actor, formUuid, uuid);
  if (row.user_uuid !== actor.user.uuid) throw forbidden('not_response_author', 'Only the author of a response can change its answers.');
  if (isFinal(workflowOf(form), row.current_state)) throw locked();
  const questions = await questionsIn<FormQuestionRow>(db, FORM_QUESTIONS, formUuid);
  const answers = applyAnswers(questions, readJson<Answer[]>(row.answers, []), input.responses);
  const updated = { ...row, answers: writeJson(answers), updated_at: now.toISOString() };
  await db('form_responses').where({ uuid }).update({ answers: updated.answers, updated_at: updated.updated_at });
  const [view] = await views(db, actor, form, [updated]);
  await record(db, 'forms.response.updated', view, now);
  return view;
}

/** In a transaction of its own (a savepoint when given one). */
export function editFormResponse(db: Executor, actor: Actor, formUuid: string, uuid: string, input: FormResponseInput, now: Date): Promise<ResponseView> {
  return db.transaction((trx) => editFormResponseInTransaction(trx, actor, formUuid, uuid, input, now));
}

/** DELETE: the author, the form's owners and admins, until the response is in a final state. */
async function deleteFormResponseInTransaction(db: Executor, actor: Actor, formUuid: string, uuid: string, now: Date): Promise<void> {
  const { form, row } = await visibleResponse(db, actor, formUuid, uuid);
  if (isFinal(workflowOf(form), row.current_state)) throw locked();
  const [view] = await views(db, actor, form, [row]);
  await db('form_responses').where({ uuid }).delete();
  await record(db, 'forms.response.deleted', view, now);
}

/** In a transaction of its own (a savepoint when given one). */
export function deleteFormResponse(db: Executor, actor: Actor, formUuid: string, uuid: string, now: Date): Promise<void> {
  return db.transaction((trx) => deleteFormResponseInTransaction(trx, actor, formUuid, uuid, now));
}

/**
 * POST …/transition/ `{to_state, note?}`: moves a response along a transition of the form's workflow that one
 * of the caller's roles may make; a final state locks the response. The move is kept in state_history.
 */
async function transitionFormResponseInTransaction(db: Executor, actor: Actor, formUuid: string, uuid: string, input: TransitionRequest, now: Date): Promise<ResponseView> {
  const { form, row } = await visibleResponse(db, actor, formUuid, uuid);
  const workflow = workflowOf(form);
  if (workflow.states.length === 0) throw badRequest('form_has_no_states', 'This form has no states to move a response through.');
  if (isFinal(workflow, row.current_state)) throw locked();
  const transition = workflow.transitions.find((t) => t.from_state === row.current_state && t.to_state === input.to_state);
  if (!transition) {
    const next = workflow.transitions.filter((t) => t.from_state === row.current_state).map((t) => t.to_state);
    throw badRequest('invalid_transition', `No transition from "${row.current_state}" to "${input.to_state}".`, { from_state: row.current_state, allowed: next });
  }
  const roles = await rolesOn(db, actor, form, row);
  if (!transition.roles.some((r) => roles.has(r))) {
    throw forbidden('transition_not_allowed', `Only ${transition.roles.join(', ')} can move a response from "${transition.from_state}" to "${transition.to_state}".`);
  }
  const stamp = now.toISOString();
  const note = input.note ?? null;
  await db('form_responses').where({ uuid }).update({ current_state: input.to_state, updated_at: stamp });
  await db('form_response_history').insert({ uuid: uuidv7(now.getTime()), response_uuid: uuid, from_state: row.current_state, to_state: input.to_state, actor_uuid: actor.user.uuid, note, created_at: stamp });
  const [view] = await views(db, actor, form, [{ ...row, current_state: input.to_state, updated_at: stamp }]);
  await record(db, 'forms.response.updated', view, now, { from_state: row.current_state, to_state: input.to_state, note });
  return view;
}

/** In a transaction of its own (a savepoint when given one). */
export function transitionFormResponse(db: Executor, actor: Actor, formUuid: string, uuid: string, input: TransitionRequest, now: Date): Promise<ResponseView> {
  return db.transaction((trx) => transitionFormResponseInTransaction(trx, actor, formUuid, uuid, input, now));
}

export interface ResponseFilters {
  from?: string;
  to?: string;
  user?: string;
  state?: string;
}

/** GET …/responses/: newest first; owners and admins see all (filter by user and date), others their own. */
export async function listFormResponses(db: Executor, actor: Actor, formUuid: string, filters: ResponseFilters, page: PageRequest) {
  const form = await getVisibleForm(db, actor, formUuid);
  const all = await seesAll(db, actor, form);
  if (flag(form.is_anonymous) && filters.user && filters.user !== actor.user.uuid) {
    throw invalidFilter('user', 'This form is anonymous: responses cannot be filtered by author.');
  }
  if (!all && filters.user && filters.user !== actor.user.uuid) return { form, count: 0, views: [] as ResponseView[] };
  const filtered = () => {
    const query = db('form_responses').where({ form_uuid: formUuid });
    const user = all ? filters.user : actor.user.uuid;
    if (user) query.andWhere({ user_uuid: user });
    if (filters.from) query.andWhere('created_at', '>=', filters.from);
    if (filters.to) query.andWhere('created_at', '<', filters.to);
    if (filters.state) query.andWhere({ current_state: filters.state });
    return query;
  };
  const [{ count }] = await filtered().count({ count: '*' });
  const rows: FormResponseRow[] = await filtered().select().orderBy('created_at', 'desc').orderBy('uuid', 'desc').limit(page.limit).offset(page.offset);
  return { form, count: Number(count), views: await views(db, actor, form, rows) };
}
