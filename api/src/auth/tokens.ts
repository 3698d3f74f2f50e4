import type { Executor } from '../db/connection.ts';
import { uuidv7 } from '../lib/ids.ts';
import { newCliTokenSecret, sha256Hex } from '../lib/secrets.ts';

/** CLI Bearer tokens last 30 days (CONTRACT §4); afterwards they answer 401 `credential_expired`. */
export const CLI_TOKEN_LIFETIME_MS = 30 * 24 * 3600 * 1000;

export async function issueCliToken(
  db: Executor,
  params: { organizationUuid: string; userUuid: string },
  now: Date,
): Promise<{ uuid: string; token: string; expiresAt: string }> {
  const token = newCliTokenSecret();
  const uuid = uuidv7(now.getTime());
  const expiresAt = new Date(now.getTime() + CLI_TOKEN_LIFETIME_MS).toISOString();
  await db('cli_tokens').insert({
    uuid,
    organization_uuid: params.organizationUuid,
    user_uuid: params.userUuid,
    token_hash: sha256Hex(token),
    expires_at: expiresAt,
    revoked_at: null,
    last_used_at: null,
    created_at: now.toISOString(),
  });
  return { uuid, token, expiresAt };
}

export async function revokeCliToken(db: Executor, uuid: string, now: Date): Promise<void> {
  await db('cli_tokens').where({ uuid }).whereNull('revoked_at').update({ revoked_at: now.toISOString() });
}

/** Sign-out everywhere: every live CLI token of the person (terminals and web-app sessions alike); how many. */
export async function revokeAllCliTokens(db: Executor, userUuid: string, now: Date): Promise<number> {
  return db('cli_tokens').where({ user_uuid: userUuid }).whereNull('revoked_at').update({ revoked_at: now.toISOString() });
}
