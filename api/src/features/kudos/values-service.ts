import type { Db, Executor } from '../../db/connection.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { Actor } from '../../auth/credentials.ts';
import type { CompanyValueRow } from './repository.ts';
import type { CompanyValueInput, UpdateCompanyValueInput } from './schema.ts';

/** Company values: every member reads them (to pick one for a kudos); admins write them. Ordered by name. */
export async function listCompanyValues(db: Executor, actor: Actor): Promise<CompanyValueRow[]> {
  const rows: CompanyValueRow[] = await db('company_values').where({ organization_uuid: actor.organization.uuid });
  return rows.sort((a, b) => a.value.localeCompare(b.value) || (a.uuid < b.uuid ? -1 : 1));
}

export async function getCompanyValue(db: Executor, actor: Actor, uuid: string): Promise<CompanyValueRow> {
  const row: CompanyValueRow | undefined = await db('company_values').where({ organization_uuid: actor.organization.uuid, uuid }).first();
  if (!row) throw notFound();
  return row;
}

async function refuseDuplicate(db: Executor, actor: Actor, value: string, except?: string): Promise<void> {
  const query = db('company_values').where({ organization_uuid: actor.organization.uuid }).andWhereRaw('lower(value) = ?', [value.toLowerCase()]);
  if (except) query.andWhereNot({ uuid: except });
  if (await query.first('uuid')) throw conflict('company_value_exists', `The company value "${value}" already exists.`);
}

/** In a transaction of its own: on PostgreSQL a concurrent twin that got past the check first makes it run again (db/retry.ts) and answer 409. */
export function createCompanyValue(db: Db, actor: Actor, input: CompanyValueInput, now: Date): Promise<CompanyValueRow> {
  return db.transaction((trx) => createCompanyValueInTransaction(trx, actor, input, now));
}

async function createCompanyValueInTransaction(db: Executor, actor: Actor, input: CompanyValueInput, now: Date): Promise<CompanyValueRow> {
  await refuseDuplicate(db, actor, input.value);
  const row: CompanyValueRow = {
    uuid: uuidv7(now.getTime()),
    organization_uuid: actor.organization.uuid,
    value: input.value,
    emoji: input.emoji ?? null,
    description: input.description ?? null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await db('company_values').insert(row);
  return row;
}

export function updateCompanyValue(db: Db, actor: Actor, uuid: string, input: UpdateCompanyValueInput, now: Date): Promise<CompanyValueRow> {
  return db.transaction((trx) => updateCompanyValueInTransaction(trx, actor, uuid, input, now));
}

async function updateCompanyValueInTransaction(db: Executor, actor: Actor, uuid: string, input: UpdateCompanyValueInput, now: Date): Promise<CompanyValueRow> {
  const current = await getCompanyValue(db, actor, uuid);
  if (input.value !== undefined) await refuseDuplicate(db, actor, input.value, uuid);
  const changes = {
    ...(input.value !== undefined ? { value: input.value } : {}),
    ...(input.emoji !== undefined ? { emoji: input.emoji } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    updated_at: now.toISOString(),
  };
  await db('company_values').where({ uuid }).update(changes);
  return { ...current, ...changes };
}

/** Deleting a value keeps the kudos that named it; they simply name no value any more. */
async function deleteCompanyValueInTransaction(db: Executor, actor: Actor, uuid: string): Promise<void> {
  await getCompanyValue(db, actor, uuid);
  await db('kudos').where({ company_value_uuid: uuid }).update({ company_value_uuid: null });
  await db('company_values').where({ uuid }).delete();
}

/** In a transaction of its own (a savepoint when given one). */
export function deleteCompanyValue(db: Executor, actor: Actor, uuid: string): Promise<void> {
  return db.transaction((trx) => deleteCompanyValueInTransaction(trx, actor, uuid));
}
