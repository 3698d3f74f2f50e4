import type { Executor } from '../db/connection.ts';
import { uuidv7 } from '../lib/ids.ts';
import { bool } from '../lib/json.ts';
import { newExchangeTokenSecret, sha256Hex } from '../lib/secrets.ts';
import type { AuditAction, ExchangeTokenRow, UserRow } from '../db/tables.ts';

/** CONTRACT §4: an exchange token lasts 300 seconds. */
export const EXCHANGE_TOKEN_SECONDS = 300;

/** Stores a new exchange token (its SHA-256 only) for `userUuid`, issued by an admin's credential; returns the secret once. */
export async function issueExchangeToken(
  db: Executor,
  params: { organizationUuid: string; userUuid: string; issuedByUuid: string; credentialUuid: string },
  now: Date,
): Promise<{ row: ExchangeTokenRow; token: string }> {
  const token = newExchangeTokenSecret();
  const row: ExchangeTokenRow = {
    uuid: uuidv7(now.getTime()),
    organization_uuid: params.organizationUuid,
    user_uuid: params.userUuid,
    issued_by_uuid: params.issuedByUuid,
    issued_by_credential_uuid: params.credentialUuid,
    token_hash: sha256Hex(token),
    expires_at: new Date(now.getTime() + EXCHANGE_TOKEN_SECONDS * 1000).toISOString(),
    created_at: now.toISOString(),
  };
  await db('exchange_tokens').insert(row);
  return { row, token };
}

export interface PresentedExchangeToken {
  row: ExchangeTokenRow;
  member: UserRow | undefined;
  /** Read now, not from the credential cache: an operator turning exchange tokens off (or on) counts at once. */
  exchangeEnabled: boolean;
}

/** The token, the member it names and whether its organization has exchange tokens on; null for an unknown token. */
export async function lookupExchangeToken(db: Executor, token: string): Promise<PresentedExchangeToken | null> {
  const row = await db('exchange_tokens').where({ token_hash: sha256Hex(token) }).first();
  if (!row) return null;
  const organization = await db('organizations').where({ uuid: row.organization_uuid }).first('exchange_enabled');
  return { row, member: await db('users').where({ uuid: row.user_uuid }).first(), exchangeEnabled: bool(organization?.exchange_enabled) };
}

/** Drops exchange tokens a day past their expiry (the hourly job). */
export async function pruneExchangeTokens(db: Executor, now: Date): Promise<number> {
  return db('exchange_tokens').where('expires_at', '<', new Date(now.getTime() - 24 * 3600 * 1000).toISOString()).delete();
}

export interface AuditEntry {
  organizationUuid: string;
  action: AuditAction;
  actorUuid: string | null;
  adminUuid: string | null;
  credentialUuid: string | null;
  exchangeTokenUuid: string | null;
  method?: string;
  path?: string;
  status?: number | null;
}

/** Writes one audit event; returns its uuid (to record the outcome of a request later). */
export async function recordAudit(db: Executor, entry: AuditEntry, now: Date): Promise<string> {
  const uuid = uuidv7(now.getTime());
  await db('audit_events').insert({
    uuid,
    organization_uuid: entry.organizationUuid,
    action: entry.action,
    actor_uuid: entry.actorUuid,
    admin_uuid: entry.adminUuid,
    credential_uuid: entry.credentialUuid,
    exchange_token_uuid: entry.exchangeTokenUuid,
    method: entry.method ?? null,
    path: entry.path ? entry.path.slice(0, 2048) : null,
    status: entry.status ?? null,
    created_at: now.toISOString(),
  });
  return uuid;
}

export async function recordAuditStatus(db: Executor, uuid: string, status: number): Promise<void> {
  await db('audit_events').where({ uuid }).update({ status });
}
