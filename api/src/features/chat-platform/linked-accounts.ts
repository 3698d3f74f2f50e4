import type { Db, Executor } from '../../db/connection.ts';
import { randomBase62, sha256Hex } from '../../lib/secrets.ts';
import type { ChatLinkedAccountRow, Platform, UserRow } from '../../db/tables.ts';
import { activeUserByEmail, rememberPerson } from './people.ts';

/**
 * Accounts people link themselves, on platforms whose bot cannot look anyone up by e-mail (Discord). In the
 * platform, the person asks for a link (`/rollcall link`): a one-time token, valid 15 minutes, in a web app
 * address only they see. Signed in to the web app, they confirm it (POST /v1/me/chat-accounts/), and the account
 * is theirs until they link another. Prompts then reach them by direct message (people.ts, `personId`).
 */
const LINK_VALID_MS = 15 * 60_000;
export const LINK_TOKEN = /^[A-Za-z0-9]{32}$/;

/** The web app's page that confirms a link (app/src/pages/link-account.tsx). */
export const linkPageUrl = (publicBase: string, token: string): string => `${publicBase}/app/link/${token}`;

/** A new link request for a platform account; returns the token (only its hash is kept). */
export async function requestLink(
  trx: Executor, key: { organizationUuid: string; platform: Platform; externalId: string; externalName: string | null }, now: Date,
): Promise<string> {
  const token = randomBase62(32);
  await trx('chat_link_requests').where('expires_at', '<', now.toISOString()).delete();
  await trx('chat_link_requests').insert({
    token_hash: sha256Hex(token), organization_uuid: key.organizationUuid, platform: key.platform, external_id: key.externalId,
    external_name: key.externalName?.slice(0, 100) ?? null, expires_at: new Date(now.getTime() + LINK_VALID_MS).toISOString(), created_at: now.toISOString(),
  });
  return token;
}

/**
 * Confirms a link for the signed-in person: the token must be unused, unexpired and of their organization (else
 * null, told apart from nothing). Used once; the account moves to them (from anyone who had it), and their
 * earlier account on that platform is replaced.
 */
export function confirmLink(db: Db, person: Pick<UserRow, 'uuid' | 'organization_uuid' | 'email'>, token: string, now: Date): Promise<ChatLinkedAccountRow | null> {
  if (!LINK_TOKEN.test(token)) return Promise.resolve(null);
  return db.transaction((trx) => takeLink(trx, person, token, now));
}

async function takeLink(trx: Executor, person: Pick<UserRow, 'uuid' | 'organization_uuid' | 'email'>, token: string, now: Date): Promise<ChatLinkedAccountRow | null> {
  const request = await trx('chat_link_requests').where({ token_hash: sha256Hex(token), organization_uuid: person.organization_uuid }).first();
  if (!request || request.expires_at < now.toISOString()) return null;
  const used = await trx('chat_link_requests').where({ token_hash: request.token_hash }).delete();
  if (used === 0) return null; // a concurrent confirmation took it
  const { organization_uuid, platform, external_id } = request;
  await trx('chat_linked_accounts').where({ organization_uuid, platform }).andWhere((q) => q.where({ external_id }).orWhere({ user_uuid: person.uuid })).delete();
  const row: ChatLinkedAccountRow = { organization_uuid, platform, external_id, user_uuid: person.uuid, external_name: request.external_name, linked_at: now.toISOString() };
  await trx('chat_linked_accounts').insert(row);
  // The people cache follows, so the person is no longer listed as not found.
  await trx('chat_people').where({ organization_uuid, platform, external_id }).delete();
  await rememberPerson(trx, { organizationUuid: organization_uuid, platform, email: person.email }, external_id, now);
  return row;
}

/** The person's linked accounts (GET /v1/me/chat-accounts/). */
export const linkedAccountsOf = (db: Executor, userUuid: string): Promise<ChatLinkedAccountRow[]> =>
  db('chat_linked_accounts').where({ user_uuid: userUuid }).orderBy('platform');

/** The active person a platform account is linked to; undefined when it is linked to nobody active. */
export async function linkedUser(db: Executor, organizationUuid: string, platform: Platform, externalId: string): Promise<UserRow | undefined> {
  const link = await db('chat_linked_accounts').where({ organization_uuid: organizationUuid, platform, external_id: externalId }).first('user_uuid');
  if (!link) return undefined;
  const user: UserRow | undefined = await db('users').where({ uuid: link.user_uuid, organization_uuid: organizationUuid }).first();
  return user ? activeUserByEmail(db, organizationUuid, user.email) : undefined;
}

/** A form's parts kept this long wait no more (a day's answer is long closed by then). */
const DRAFT_KEPT_MS = 2 * 24 * 3_600_000;

/** The hourly prune: link requests past their 15 minutes, and parts of forms left half-way for two days. */
export async function pruneLinksAndDrafts(db: Executor, now: Date): Promise<number> {
  const links = await db('chat_link_requests').where('expires_at', '<', now.toISOString()).delete();
  const drafts = await db('chat_answer_drafts').where('updated_at', '<', new Date(now.getTime() - DRAFT_KEPT_MS).toISOString()).delete();
  return links + drafts;
}
