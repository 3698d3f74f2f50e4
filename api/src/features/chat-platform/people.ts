import type { Executor } from '../../db/connection.ts';
import { bool } from '../../lib/json.ts';
import type { Platform, UserRow } from '../../db/tables.ts';
import { PlatformError } from './platform-http.ts';

/**
 * People matched to their platform account by e-mail (Slack `users.lookupByEmail`), cached in `chat_people`:
 * a match for a day, a miss for an hour (someone who joins the workspace is found within the hour). A miss
 * lists the person as not found (GET /v1/integrations/, the check-in's runs). A request from the platform
 * finds its person the other way: by the account id, then the organization's active user with that e-mail.
 */
const FOUND_FOR_MS = 24 * 3_600_000;
const MISSED_FOR_MS = 3_600_000;

export class PersonNotFound extends PlatformError {
  constructor(platform: string, email: string) {
    super(LINKED_ACCOUNT_PLATFORMS.has(platform as Platform)
      ? `${platform}: ${email} has not linked their account (/rollcall link)`
      : `${platform}: nobody in the workspace has the e-mail ${email}`, { permanent: true });
  }
}

/**
 * Platforms whose people link their account themselves (linked-accounts.ts), as a Discord bot cannot look anyone
 * up by e-mail: their link is read every time (it persists; no lookup to cache), and the cache only mirrors it
 * for the list of people not found.
 */
export const LINKED_ACCOUNT_PLATFORMS: ReadonlySet<Platform> = new Set<Platform>(['discord']);

/** The account linked by the organization's person with this e-mail, or null. */
async function linkedAccountByEmail(db: Executor, organizationUuid: string, platform: Platform, email: string): Promise<string | null> {
  const row = await db('chat_linked_accounts')
    .join('users', 'users.uuid', 'chat_linked_accounts.user_uuid')
    .where('chat_linked_accounts.organization_uuid', organizationUuid)
    .where('chat_linked_accounts.platform', platform)
    .whereRaw('lower(users.email) = ?', [email])
    .first('chat_linked_accounts.external_id');
  return row?.external_id ?? null;
}

/** The person's account id on the platform: cached, else `lookup` (null: no account with that e-mail) and cached. */
export async function personId(
  db: Executor, key: { organizationUuid: string; platform: Platform; email: string }, lookup: (email: string) => Promise<string | null>, now: Date,
): Promise<string> {
  const email = key.email.toLowerCase();
  const where = { organization_uuid: key.organizationUuid, platform: key.platform, email };
  const row = await db('chat_people').where(where).first();
  if (LINKED_ACCOUNT_PLATFORMS.has(key.platform)) {
    const linked = await linkedAccountByEmail(db, key.organizationUuid, key.platform, email);
    if (!row || bool(row.found) !== (linked !== null) || row.external_id !== linked) await rememberPerson(db, { ...key, email }, linked, now);
    if (!linked) throw new PersonNotFound(key.platform, email);
    return linked;
  }
  const age = row ? now.getTime() - Date.parse(row.looked_up_at) : Infinity;
  if (row && age >= 0 && age < (bool(row.found) ? FOUND_FOR_MS : MISSED_FOR_MS)) {
    if (bool(row.found) && row.external_id) return row.external_id;
    throw new PersonNotFound(key.platform, email);
  }
  const id = await lookup(email);
  await rememberPerson(db, { ...key, email }, id, now);
  if (!id) throw new PersonNotFound(key.platform, email);
  return id;
}

/** Records what a lookup found (null: nobody has that e-mail). */
export async function rememberPerson(db: Executor, key: { organizationUuid: string; platform: Platform; email: string }, externalId: string | null, now: Date): Promise<void> {
  const row = { organization_uuid: key.organizationUuid, platform: key.platform, email: key.email.toLowerCase(), external_id: externalId, found: externalId !== null, looked_up_at: now.toISOString() };
  await db('chat_people').insert(row).onConflict(['organization_uuid', 'platform', 'email']).merge(['external_id', 'found', 'looked_up_at']);
}

/** The organization's active user a platform account belongs to, when it has been matched; undefined otherwise. */
export async function userOfAccount(db: Executor, organizationUuid: string, platform: Platform, externalId: string): Promise<UserRow | undefined> {
  const match = await db('chat_people').where({ organization_uuid: organizationUuid, platform, external_id: externalId, found: true }).first('email');
  return match ? activeUserByEmail(db, organizationUuid, match.email) : undefined;
}

export async function activeUserByEmail(db: Executor, organizationUuid: string, email: string): Promise<UserRow | undefined> {
  const user: UserRow | undefined = await db('users').where({ organization_uuid: organizationUuid }).whereRaw('lower(email) = ?', [email.toLowerCase()]).first();
  return user && bool(user.is_active) ? user : undefined;
}

/** The organization's people the platform has no account for (the last lookup missed), by name. */
export async function peopleNotFound(db: Executor, organizationUuid: string, platform: Platform): Promise<(Pick<UserRow, 'uuid' | 'first_name' | 'last_name' | 'email'> & { looked_up_at: string })[]> {
  const misses = await db('chat_people').where({ organization_uuid: organizationUuid, platform, found: false }).select('email', 'looked_up_at');
  if (misses.length === 0) return [];
  const at = new Map(misses.map((m) => [m.email, m.looked_up_at]));
  const emails = [...at.keys()];
  const users = await db('users')
    .where({ organization_uuid: organizationUuid, is_active: true })
    .whereRaw(`lower(email) in (${emails.map(() => '?').join(', ')})`, emails)
    .select('uuid', 'first_name', 'last_name', 'email');
  return users
    .map((u: Pick<UserRow, 'uuid' | 'first_name' | 'last_name' | 'email'>) => ({ ...u, looked_up_at: at.get(u.email.toLowerCase())! }))
    .sort((a, b) => a.last_name.localeCompare(b.last_name) || a.first_name.localeCompare(b.first_name));
}

/** What the last lookup found for each of these e-mails (lower case → found or not); absent: never looked up. */
export async function accountsOf(db: Executor, organizationUuid: string, platform: Platform, emails: string[]): Promise<Map<string, boolean>> {
  const found = new Map<string, boolean>();
  const lower = [...new Set(emails.map((e) => e.toLowerCase()))];
  for (let i = 0; i < lower.length; i += 500) {
    const rows = await db('chat_people').where({ organization_uuid: organizationUuid, platform }).whereIn('email', lower.slice(i, i + 500)).select('email', 'found');
    for (const row of rows) found.set(row.email, bool(row.found));
  }
  return found;
}
