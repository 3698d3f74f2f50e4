import type { Executor } from '../../db/connection.ts';
import { ValidationFailed, badRequest, conflict, forbidden } from '../../lib/errors.ts';
import type { PageRequest } from '../../lib/page.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { writeJson } from '../../lib/json.ts';
import type { Actor } from '../../auth/credentials.ts';
import { questionsIn } from '../checkins/repository.ts';
import { questionColumns } from '../checkins/columns.ts';
import { assertCan, can } from '../../auth/policy.ts';
import { likePattern } from '../../db/sql.ts';
import { FORM_QUESTIONS, flag, getVisibleForm, isOwner, ownersOf, visibleForms, workflowOf } from './repository.ts';
import type { FormQuestionRow, FormRow, OwnerRef } from './repository.ts';
import { buildWorkflow } from './states.ts';
import type { CreateFormInput, FormSettingsInput, FormType, UpdateFormInput } from './schema.ts';

export interface FormDetail {
  row: FormRow;
  owners: OwnerRef[];
  questions: FormQuestionRow[] | null;
  responsesCount: number;
}

export const formOwnerRequired = () => forbidden('form_owner_required', 'Only the form\'s owners and organization admins can do this.');

/** A form the caller can see and edit: 404 when invisible, then 403 unless an owner or an admin. */
export async function editableForm(db: Executor, actor: Actor, uuid: string): Promise<FormRow> {
  const row = await getVisibleForm(db, actor, uuid);
  if (!can(actor, 'forms.manage_all') && !(await isOwner(db, uuid, actor.user.uuid))) throw formOwnerRequired();
  return row;
}

async function checkOwners(db: Executor, actor: Actor, uuids: string[], problems: Record<string, string[]>): Promise<string[]> {
  const unique = [...new Set(uuids)];
  if (unique.length === 0) return unique;
  const found = new Set((await db('users').where('organization_uuid', actor.organization.uuid).whereIn('uuid', unique).select('uuid')).map((r: { uuid: string }) => r.uuid));
  uuids.forEach((uuid, i) => {
    if (!found.has(uuid)) problems[`owner_uuids.${i}`] = ['No user with this id in your organization.'];
  });
  return unique;
}

/** Column values for the settings present in `input`; states and transitions are checked together. */
function settingsColumns(input: FormSettingsInput, current: FormRow | null, problems: Record<string, string[]>) {
  const columns: Partial<FormRow> = {};
  for (const field of ['name', 'description', 'is_public', 'is_anonymous'] as const) {
    const value = (input as Record<string, unknown>)[field];
    if (value !== undefined) (columns as Record<string, unknown>)[field] = value;
  }
  const type: FormType = input.form_type ?? current?.form_type ?? 'standard';
  if (!current || input.form_type !== undefined || input.states !== undefined || input.transitions !== undefined) {
    // On PATCH, what is not given is kept, as long as the form keeps its type.
    const kept = current && type === current.form_type ? workflowOf(current) : null;
    const states = input.states ?? kept?.states;
    const transitions = input.transitions ?? (input.states === undefined ? kept?.transitions : undefined);
    const workflow = buildWorkflow(type, states, transitions, problems);
    columns.form_type = type;
    columns.states = writeJson(workflow.states);
    columns.transitions = writeJson(workflow.transitions);
  }
  return columns;
}

/** POST /v1/forms/create/ (admins and managers): the creator owns it unless owner_uuids names others. */
async function createFormInTransaction(db: Executor, actor: Actor, input: CreateFormInput, now: Date): Promise<FormDetail> {
  assertCan(actor, 'forms.create');
  const problems: Record<string, string[]> = {};
  const owners = await checkOwners(db, actor, input.owner_uuids ?? [actor.user.uuid], problems);
  const columns = settingsColumns(input, null, problems);
  const questions = input.questions.map((q, i) => {
    const built = questionColumns(q, `questions.${i}.`);
    Object.assign(problems, built.problems);
    return built.columns;
  });
  if (Object.keys(problems).length) throw new ValidationFailed(problems);
  const uuid = uuidv7(now.getTime());
  const stamp = now.toISOString();
  await db('forms').insert({
    uuid, organization_uuid: actor.organization.uuid, description: null, is_public: true, is_anonymous: false, is_archived: false, archived_at: null,
    created_by_uuid: actor.user.uuid, created_at: stamp, updated_at: stamp, ...columns, name: input.name,
  });
  await db('form_questions').insert(questions.map((q, position) => ({ uuid: uuidv7(now.getTime()), form_uuid: uuid, position, ...q, created_at: stamp, updated_at: stamp })));
  if (owners.length) await db('form_owners').insert(owners.map((user_uuid) => ({ form_uuid: uuid, user_uuid })));
  return formDetail(db, actor, uuid);
}

/** In a transaction of its own (a savepoint when given one). */
export function createForm(db: Executor, actor: Actor, input: CreateFormInput, now: Date): Promise<FormDetail> {
  return db.transaction((trx) => createFormInTransaction(trx, actor, input, now));
}

/** PATCH …/config/ (owners and admins). An anonymous form with responses stays anonymous: its authors were promised that. */
async function updateFormInTransaction(db: Executor, actor: Actor, uuid: string, input: UpdateFormInput, now: Date): Promise<FormDetail> {
  const current = await editableForm(db, actor, uuid);
  const problems: Record<string, string[]> = {};
  const owners = input.owner_uuids ? await checkOwners(db, actor, input.owner_uuids, problems) : null;
  const columns = settingsColumns(input, current, problems);
  if (Object.keys(problems).length) throw new ValidationFailed(problems);
  const responses = () => db('form_responses').where({ form_uuid: uuid });
  if (flag(current.is_anonymous) && input.is_anonymous === false && (await responses().first('uuid'))) {
    throw badRequest('form_anonymity_locked', 'This anonymous form has responses; it stays anonymous.');
  }
  if (columns.states !== undefined) {
    const names = new Set(JSON.parse(columns.states).map((s: { name: string }) => s.name));
    const held: { current_state: string }[] = await responses().whereNotNull('current_state').distinct('current_state');
    const orphaned = held.map((r) => r.current_state).filter((s) => !names.has(s));
    if (orphaned.length) throw conflict('state_in_use', `Responses are in ${orphaned.map((s) => `"${s}"`).join(', ')}; keep those states.`, { states: orphaned });
  }
  await db('forms').where({ uuid }).update({ ...columns, updated_at: now.toISOString() });
  if (owners) {
    await db('form_owners').where({ form_uuid: uuid }).delete();
    if (owners.length) await db('form_owners').insert(owners.map((user_uuid) => ({ form_uuid: uuid, user_uuid })));
  }
  return formDetail(db, actor, uuid);
}

/** In a transaction of its own (a savepoint when given one). */
export function updateForm(db: Executor, actor: Actor, uuid: string, input: UpdateFormInput, now: Date): Promise<FormDetail> {
  return db.transaction((trx) => updateFormInTransaction(trx, actor, uuid, input, now));
}

export async function archiveForm(db: Executor, actor: Actor, uuid: string, now: Date): Promise<void> {
  await editableForm(db, actor, uuid);
  await db('forms').where({ uuid }).update({ is_archived: true, archived_at: now.toISOString(), updated_at: now.toISOString() });
}

export async function formDetail(db: Executor, actor: Actor, uuid: string): Promise<FormDetail> {
  const row = await getVisibleForm(db, actor, uuid);
  const [owners, questions, counts] = [await ownersOf(db, [uuid]), await questionsIn<FormQuestionRow>(db, FORM_QUESTIONS, uuid), await responseCounts(db, [uuid])];
  return { row, owners: owners.get(uuid)!, questions, responsesCount: counts.get(uuid) ?? 0 };
}

async function responseCounts(db: Executor, uuids: string[]): Promise<Map<string, number>> {
  if (uuids.length === 0) return new Map();
  const rows = (await db('form_responses').whereIn('form_uuid', uuids).groupBy('form_uuid').select('form_uuid', db.raw('count(*) as n'))) as unknown as { form_uuid: string; n: number | string }[];
  return new Map(rows.map((r: { form_uuid: string; n: number | string }) => [r.form_uuid, Number(r.n)]));
}

export interface FormFilters {
  filter: 'all' | 'public' | 'approval' | 'workflow' | 'archived';
  includeArchived: boolean;
  ownerUuids?: string[];
  search?: string;
  includeQuestions: boolean;
  order: { column: string; direction: 'asc' | 'desc' };
}

export async function listForms(db: Executor, actor: Actor, filters: FormFilters, page: PageRequest): Promise<{ count: number; items: FormDetail[] }> {
  const filtered = () => {
    const query = visibleForms(db, actor);
    if (filters.filter === 'archived') query.andWhere('f.is_archived', true);
    else if (!filters.includeArchived) query.andWhere('f.is_archived', false);
    if (filters.filter === 'public') query.andWhere('f.is_public', true);
    if (filters.filter === 'approval' || filters.filter === 'workflow') query.andWhere('f.form_type', filters.filter);
    if (filters.ownerUuids) query.whereIn('f.uuid', db('form_owners').select('form_uuid').whereIn('user_uuid', filters.ownerUuids));
    if (filters.search) query.andWhereRaw("lower(f.name) like ? escape '\\'", [likePattern(filters.search)]);
    return query;
  };
  const [{ count }] = await filtered().count({ count: '*' });
  const rows: FormRow[] = await filtered().select('f.*').orderBy(`f.${filters.order.column}`, filters.order.direction).orderBy('f.uuid', filters.order.direction).limit(page.limit).offset(page.offset);
  const uuids = rows.map((r) => r.uuid);
  const owners = await ownersOf(db, uuids);
  const counts = await responseCounts(db, uuids);
  const questions = new Map<string, FormQuestionRow[]>();
  if (filters.includeQuestions && uuids.length) {
    const all: FormQuestionRow[] = await db('form_questions').whereIn('form_uuid', uuids);
    for (const q of all.sort((a, b) => a.position - b.position)) questions.set(q.form_uuid, [...(questions.get(q.form_uuid) ?? []), q]);
  }
  return {
    count: Number(count),
    items: rows.map((row) => ({ row, owners: owners.get(row.uuid)!, questions: filters.includeQuestions ? (questions.get(row.uuid) ?? []) : null, responsesCount: counts.get(row.uuid) ?? 0 })),
  };
}

/** GET /v1/forms/form-owners/: the people who own a live form the caller can see, by name. */
export async function formOwners(db: Executor, actor: Actor, page: PageRequest): Promise<{ count: number; rows: OwnerRef[] }> {
  const owned = () =>
    db('users as u').whereIn('u.uuid', db('form_owners').select('user_uuid').whereIn('form_uuid', visibleForms(db, actor).andWhere('f.is_archived', false).select('f.uuid')));
  const [{ count }] = await owned().count({ count: '*' });
  const rows: OwnerRef[] = await owned().select('u.uuid', 'u.first_name', 'u.last_name', 'u.email', 'u.image', 'u.role').orderBy('u.first_name').orderBy('u.last_name').orderBy('u.uuid').limit(page.limit).offset(page.offset);
  return { count: Number(count), rows };
}
