import type { Executor } from '../../db/connection.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { newApiKeySecret, sha256Hex } from '../../lib/secrets.ts';
import { readJson, writeJson } from '../../lib/json.ts';
import { ApiError, ValidationFailed, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import type { PageRequest } from '../../lib/page.ts';
import type { Actor } from '../../auth/credentials.ts';
import { assertHoldsScopes, assertMayCreateKeys, assertPerson, can } from '../../auth/policy.ts';
import { findUserInOrganization } from '../users/repository.ts';
import type { CreateKeyInput, UpdateKeyInput } from './schema.ts';
import type { ApiKeyRow, KeyKind } from '../../db/tables.ts';

/** A key row with the names its presenter shows. */
export interface ApiKeyView extends ApiKeyRow {
  owner_first_name: string;
  owner_last_name: string;
  owner_email: string;
  creator_first_name: string | null;
  creator_last_name: string | null;
  creator_email: string | null;
}

/** Key management acts for a person: agent and organization keys may not mint or change credentials. */
export const assertPersonCredential = (actor: Actor): void => assertPerson(actor, 'Agent and organization keys cannot manage API keys.');

/** The spec's Roles table: admins see every key of the organization, everyone else only their own. */
function visibleKeys(db: Executor, actor: Actor) {
  const query = db('api_keys as k')
    .join('users as owner', 'owner.uuid', 'k.owner_uuid')
    .leftJoin('users as creator', 'creator.uuid', 'k.created_by_uuid')
    .where('k.organization_uuid', actor.organization.uuid);
  if (!can(actor, 'api_keys.manage_all')) query.andWhere('k.owner_uuid', actor.user.uuid);
  return query;
}

const VIEW_COLUMNS = [
  'k.*',
  'owner.first_name as owner_first_name',
  'owner.last_name as owner_last_name',
  'owner.email as owner_email',
  'creator.first_name as creator_first_name',
  'creator.last_name as creator_last_name',
  'creator.email as creator_email',
];

export async function listKeys(db: Executor, actor: Actor, page: PageRequest): Promise<{ count: number; rows: ApiKeyView[] }> {
  const [{ count }] = await visibleKeys(db, actor).count({ count: '*' });
  const rows = await visibleKeys(db, actor).select(VIEW_COLUMNS).orderBy('k.uuid', 'desc').limit(page.limit).offset(page.offset);
  return { count: Number(count), rows };
}

/** Another user's key, or another organization's, answers 404 for members: no existence leak. */
export async function getKey(db: Executor, actor: Actor, uuid: string): Promise<ApiKeyView> {
  const row = await visibleKeys(db, actor).andWhere('k.uuid', uuid).first(VIEW_COLUMNS);
  if (!row) throw notFound();
  return row;
}

function secretColumns(secret: string) {
  return { secret_hash: sha256Hex(secret), key_suffix: secret.slice(-4) };
}

export async function createKey(
  db: Executor,
  actor: Actor,
  input: CreateKeyInput,
  now: Date,
): Promise<{ key: ApiKeyView; secret: string }> {
  assertMayCreateKeys(actor);
  // A key that would be expired on arrival is a mistake (a clock or a time zone off), not a key.
  if (input.expires_at && Date.parse(input.expires_at) <= now.getTime()) throw new ValidationFailed({ expires_at: ['Must be in the future.'] });
  const kind: KeyKind = input.is_agent_key ? 'agent' : (input.kind ?? 'personal');
  if (input.is_agent_key === false && input.kind && input.kind !== 'personal') {
    throw new ValidationFailed({ kind: ['Contradicts is_agent_key: false.'] });
  }
  if (kind === 'agent' && !can(actor, 'api_keys.create_agent_key')) throw badRequest('agent_key_admin_only', 'Only organization admins can create agent keys.');
  if (input.for_user_id && input.for_user_id !== actor.user.uuid && !can(actor, 'api_keys.create_for_others')) {
    throw forbidden('org_admin_required', 'Only organization admins can create keys for another user.');
  }
  if (kind === 'organization' && !can(actor, 'api_keys.create_organization_key')) throw forbidden('org_admin_required', 'Only organization admins can create organization keys.');
  let ownerUuid = actor.user.uuid;
  if (input.for_user_id) {
    const owner = await findUserInOrganization(db, actor.organization.uuid, input.for_user_id);
    if (!owner) throw new ValidationFailed({ for_user_id: ['No user with this id in your organization.'] });
    ownerUuid = owner.uuid;
  }
  const secret = newApiKeySecret();
  const uuid = uuidv7(now.getTime());
  await db('api_keys').insert({
    uuid,
    organization_uuid: actor.organization.uuid,
    owner_uuid: ownerUuid,
    created_by_uuid: actor.user.uuid,
    name: input.name ?? (kind === 'personal' ? 'API key' : `${kind[0].toUpperCase()}${kind.slice(1)} key`),
    kind,
    ...secretColumns(secret),
    scopes: writeJson(input.scopes ?? []),
    expires_at: input.expires_at ?? null,
    last_used_at: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  });
  return { key: await getKey(db, actor, uuid), secret };
}

export async function updateKey(
  db: Executor,
  actor: Actor,
  uuid: string,
  input: UpdateKeyInput,
  now: Date,
): Promise<{ key: ApiKeyView; secret: string | null }> {
  const current = await getKey(db, actor, uuid);
  if (input.scopes !== undefined) assertHoldsScopes(actor, input.scopes, 'give');
  if (input.regenerate) assertHoldsScopes(actor, input.scopes ?? readJson<string[]>(current.scopes, []), 'regenerate');
  const secret = input.regenerate ? newApiKeySecret() : null;
  const changes: Record<string, unknown> = { updated_at: now.toISOString() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.scopes !== undefined) changes.scopes = writeJson(input.scopes);
  if (secret) Object.assign(changes, secretColumns(secret));
  await db('api_keys').where({ uuid }).update(changes);
  return { key: await getKey(db, actor, uuid), secret };
}

export async function deleteKey(db: Executor, actor: Actor, uuid: string): Promise<void> {
  const current = await getKey(db, actor, uuid);
  assertHoldsScopes(actor, readJson<string[]>(current.scopes, []), 'delete');
  await db('api_keys').where({ uuid }).delete();
}

/** Gives the key `uuid` a new secret (the old one stops working) and answers it. */
export async function regenerateKeySecret(db: Executor, uuid: string, now: Date): Promise<string> {
  const secret = newApiKeySecret();
  await db('api_keys').where({ uuid }).update({ ...secretColumns(secret), updated_at: now.toISOString() });
  return secret;
}

/** Creates a key with a given secret (operator bootstrap with BOOTSTRAP_API_KEY), or a fresh one. */
export async function issueKey(
  db: Executor,
  params: { organizationUuid: string; ownerUuid: string; kind: KeyKind; name: string; secret?: string },
  now: Date,
): Promise<{ uuid: string; secret: string }> {
  const secret = params.secret ?? newApiKeySecret();
  const existing = await db('api_keys').where({ secret_hash: sha256Hex(secret) }).first('uuid');
  if (existing) throw new ApiError(409, 'key_exists', 'This API key is already registered.');
  const uuid = uuidv7(now.getTime());
  await db('api_keys').insert({
    uuid,
    organization_uuid: params.organizationUuid,
    owner_uuid: params.ownerUuid,
    created_by_uuid: null,
    name: params.name,
    kind: params.kind,
    ...secretColumns(secret),
    scopes: '[]',
    expires_at: null,
    last_used_at: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  });
  return { uuid, secret };
}
