import type { Executor } from '../../db/connection.ts';
import { notFound } from '../../lib/errors.ts';
import { readJson } from '../../lib/json.ts';
import type { Actor } from '../../auth/credentials.ts';
import type { QuestionStore } from '../checkins/repository.ts';
import type { FormQuestionRow, FormRow } from '../../db/tables.ts';
export type { FormQuestionRow, FormRow };
import { can } from '../../auth/policy.ts';
import type { Workflow } from './states.ts';

export interface OwnerRef {
  uuid: string;
  first_name: string;
  last_name: string;
  email: string;
  image: string | null;
  role: string;
}

export const FORM_QUESTIONS: QuestionStore = { table: 'form_questions', parent: 'form_uuid', parentTable: 'forms' };

export const flag = (value: boolean | number) => value === true || value === 1;
export const workflowOf = (row: FormRow): Workflow => ({ states: readJson(row.states, []), transitions: readJson(row.transitions, []) });

/** Admins see every form; others the public ones and those they own. */
export function visibleForms(db: Executor, actor: Actor) {
  const query = db('forms as f').where('f.organization_uuid', actor.organization.uuid);
  if (!can(actor, 'forms.manage_all')) {
    query.andWhere((w) => w.where('f.is_public', true).orWhereIn('f.uuid', db('form_owners').select('form_uuid').where('user_uuid', actor.user.uuid)));
  }
  return query;
}

export async function getVisibleForm(db: Executor, actor: Actor, uuid: string): Promise<FormRow> {
  const row: FormRow | undefined = await visibleForms(db, actor).andWhere('f.uuid', uuid).first('f.*');
  if (!row) throw notFound();
  return row;
}

export async function ownersOf(db: Executor, formUuids: string[]): Promise<Map<string, OwnerRef[]>> {
  const result = new Map<string, OwnerRef[]>(formUuids.map((uuid) => [uuid, []]));
  if (formUuids.length === 0) return result;
  const rows: (OwnerRef & { form_uuid: string })[] = await db('form_owners as o')
    .join('users as u', 'u.uuid', 'o.user_uuid')
    .whereIn('o.form_uuid', formUuids)
    .select('o.form_uuid', 'u.uuid', 'u.first_name', 'u.last_name', 'u.email', 'u.image', 'u.role');
  for (const row of rows) result.get(row.form_uuid)!.push(row);
  for (const owners of result.values()) owners.sort((a, b) => `${a.first_name} ${a.last_name}`.localeCompare(`${b.first_name} ${b.last_name}`) || (a.uuid < b.uuid ? -1 : 1));
  return result;
}

export async function isOwner(db: Executor, formUuid: string, userUuid: string): Promise<boolean> {
  return Boolean(await db('form_owners').where({ form_uuid: formUuid, user_uuid: userUuid }).first('user_uuid'));
}
