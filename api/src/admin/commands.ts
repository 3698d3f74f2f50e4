import type { Db } from '../db/connection.ts';
import type { Clock } from '../lib/clock.ts';
import { createOrganization, findOrganization, updateOrganization } from '../features/organization/service.ts';
import { presentOrganizationForOperator } from '../features/organization/presenter.ts';
import { createUser, findUserByRef, setUserActive } from '../features/users/repository.ts';
import { issueKey } from '../features/api-keys/service.ts';
import { READ_ONLY_SETTING, setSetting } from '../db/settings.ts';
import { notify } from '../db/notifications.ts';
import { PLANS, ROLES } from '../db/tables.ts';
import type { KeyKind, PlanName, Role } from '../db/tables.ts';

/** Operator commands (`rollcall admin …`, CONTRACT §1). Each returns plain data; cli.ts prints it. */
export class CommandError extends Error {}
/** No organization or user by that name: the message gains the database it looked in (a wrong DATA_DIR shows). */
export class NotFoundError extends CommandError {}

const onOff = (value: string | undefined): boolean => {
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new CommandError(`expected "on" or "off", got "${value ?? ''}"`);
};

async function organization(db: Db, ref: string | undefined) {
  if (!ref) throw new CommandError('name the organization (uuid, slug or name)');
  const org = await findOrganization(db, ref);
  if (!org) throw new NotFoundError(`no organization "${ref}"`);
  return org;
}

/** A user by uuid or e-mail; an address in several organizations needs `--org` (or the uuid). */
async function user(db: Db, ref: string | undefined, orgRef?: string) {
  if (!ref) throw new CommandError('name the user (uuid or e-mail)');
  let matches = await findUserByRef(db, ref);
  if (orgRef) {
    const org = await organization(db, orgRef);
    matches = matches.filter((m) => m.organization_uuid === org.uuid);
  }
  if (matches.length === 0) throw new NotFoundError(`no user "${ref}"${orgRef ? ` in ${orgRef}` : ''}`);
  if (matches.length > 1) throw new CommandError(`"${ref}" is in several organizations; add --org ORG, or use the user's uuid`);
  return matches[0];
}

function plan(value: string | undefined): PlanName {
  if (!PLANS.includes(value as PlanName)) throw new CommandError(`plan must be one of ${PLANS.join(', ')}`);
  return value as PlanName;
}

export async function createOrganizationCommand(db: Db, clock: Clock, opts: { name?: string; plan?: string; beta?: boolean }) {
  if (!opts.name) throw new CommandError('--name is required');
  const org = await createOrganization(db, { name: opts.name, plan: opts.plan ? plan(opts.plan) : 'free', planBetaEnabled: Boolean(opts.beta) }, clock.now());
  return presentOrganizationForOperator(org);
}

/**
 * An organization change that running servers must see: their cached credentials carry the organization, so
 * they are told to forget them (at once: a NOTIFY on PostgreSQL; on SQLite the server sees the file change).
 */
async function changeOrganization(db: Db, clock: Clock, ref: string | undefined, changes: () => Parameters<typeof updateOrganization>[2]) {
  const org = await organization(db, ref);
  const updated = await updateOrganization(db, org.uuid, changes(), clock.now());
  await notify(db, 'credentials');
  return presentOrganizationForOperator(updated);
}

export const setPlanCommand = (db: Db, clock: Clock, ref?: string, value?: string) => changeOrganization(db, clock, ref, () => ({ plan: plan(value) }));
export const setBetaCommand = (db: Db, clock: Clock, ref?: string, value?: string) => changeOrganization(db, clock, ref, () => ({ plan_beta_enabled: onOff(value) }));
export const setExchangeCommand = (db: Db, clock: Clock, ref?: string, value?: string) => changeOrganization(db, clock, ref, () => ({ exchange_enabled: onOff(value) }));

export async function readOnlyCommand(db: Db, clock: Clock, value?: string) {
  const enabled = onOff(value);
  await setSetting(db, READ_ONLY_SETTING, enabled, clock.now());
  return { read_only: enabled };
}

/**
 * One person may be a user of several organizations with the same e-mail address (the command-line sign-in then
 * asks which): run this once per organization.
 */
export async function createUserCommand(db: Db, clock: Clock, opts: { org?: string; email?: string; role?: string; 'first-name'?: string; 'last-name'?: string }) {
  const org = await organization(db, opts.org);
  if (!opts.email || !/^[^\s@]+@[^\s@]+$/.test(opts.email)) throw new CommandError('--email must be an e-mail address');
  const role = (opts.role ?? 'member') as Role;
  if (!ROLES.includes(role)) throw new CommandError(`--role must be one of ${ROLES.join(', ')}`);
  const existing = await db('users').where({ organization_uuid: org.uuid, email: opts.email.toLowerCase() }).first('uuid');
  if (existing) throw new CommandError(`${opts.email} is already a user of ${org.name}`);
  const row = await createUser(db, { organizationUuid: org.uuid, email: opts.email, role, firstName: opts['first-name']?.trim(), lastName: opts['last-name']?.trim() }, clock.now());
  return { uuid: row.uuid, email: row.email, first_name: row.first_name, last_name: row.last_name, role: row.role, organization_uuid: org.uuid, is_active: true };
}

export async function deactivateUserCommand(db: Db, clock: Clock, ref?: string, orgRef?: string) {
  const row = await user(db, ref, orgRef);
  await db.transaction((trx) => setUserActive(trx, row.uuid, false, clock.now()));
  await notify(db, 'credentials');
  return { uuid: row.uuid, email: row.email, is_active: false };
}

export async function createKeyCommand(db: Db, clock: Clock, opts: { user?: string; org?: string; kind?: string; name?: string }) {
  const owner = await user(db, opts.user, opts.org);
  const kind = (opts.kind ?? 'personal') as KeyKind;
  if (!['personal', 'agent', 'organization'].includes(kind)) throw new CommandError('--kind must be personal, agent or organization');
  const key = await issueKey(db, { organizationUuid: owner.organization_uuid, ownerUuid: owner.uuid, kind, name: opts.name ?? 'Operator key' }, clock.now());
  return { uuid: key.uuid, kind, owner_uuid: owner.uuid, key: key.secret };
}
