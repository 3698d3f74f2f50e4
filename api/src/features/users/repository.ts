import type { Executor } from '../../db/connection.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { Role, UserRow } from '../../db/tables.ts';
import { revokeAllCliTokens } from '../../auth/tokens.ts';

export { fullName } from '../../lib/names.ts';

export interface NewUser {
  organizationUuid: string;
  email: string;
  firstName?: string;
  lastName?: string;
  role?: Role;
  isActive?: boolean;
  timezone?: string | null;
}

export async function createUser(db: Executor, input: NewUser, now: Date): Promise<UserRow> {
  const row: UserRow = {
    uuid: uuidv7(now.getTime()),
    organization_uuid: input.organizationUuid,
    email: input.email.trim().toLowerCase(),
    first_name: input.firstName ?? '',
    last_name: input.lastName ?? '',
    role: input.role ?? 'member',
    is_active: input.isActive ?? true,
    timezone: input.timezone ?? null,
    occupation: null,
    image: null,
    language: null,
    holiday_calendar: null,
    notifications: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await db('users').insert(row);
  return row;
}

/** A user of one organization; another organization's user is as absent as a missing one. */
export async function findUserInOrganization(db: Executor, organizationUuid: string, uuid: string): Promise<UserRow | null> {
  return (await db('users').where({ organization_uuid: organizationUuid, uuid }).first()) ?? null;
}

/** Operator commands name a user by uuid or e-mail. */
export async function findUserByRef(db: Executor, ref: string): Promise<UserRow[]> {
  return db('users').where({ uuid: ref }).orWhere({ email: ref.trim().toLowerCase() });
}

/**
 * Activates or deactivates a person. Deactivation also ends their sign-ins for good (every CLI token and web
 * session is revoked, `endSignIns`): reactivating someone gives them back their API keys, never an old session.
 */
export async function setUserActive(db: Executor, uuid: string, active: boolean, now: Date): Promise<void> {
  await db('users').where({ uuid }).update({ is_active: active, updated_at: now.toISOString() });
  if (!active) await endSignIns(db, uuid, now);
}

/**
 * On deactivation: the person's CLI tokens and web sessions stop for good (their keys only pause while inactive).
 * The one place that says which sign-ins a deactivation ends: a new kind of person's sign-in is ended here too.
 */
export async function endSignIns(db: Executor, uuid: string, now: Date): Promise<void> {
  await revokeAllCliTokens(db, uuid, now);
}
