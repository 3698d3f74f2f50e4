import type { Executor } from '../db/connection.ts';
import { API_KEY_PATTERN, CLI_TOKEN_PATTERN, sha256Hex } from '../lib/secrets.ts';
import { readJson, bool } from '../lib/json.ts';
import type { KeyKind, OrganizationRow, UserRow } from '../db/tables.ts';

export type CredentialKind = 'api_key' | 'bearer';

/** Who is calling: the owner person, their organization, and the credential used. */
export interface Actor {
  user: UserRow;
  organization: OrganizationRow;
  credential: {
    kind: CredentialKind;
    uuid: string;
    /** For API keys: personal keys act as their owner; agent and organization keys act for no person. */
    keyKind: KeyKind | null;
    scopes: string[];
    expiresAt: string | null;
    /** Set when an exchange token makes the request act as `user` (auth/policy.ts `actingAs`): which token, whose. */
    exchange?: { tokenUuid: string; issuedByUuid: string };
  };
}

export type Resolution =
  | { ok: true; actor: Actor }
  | { ok: false; code: 'credential_absent' | 'credential_malformed' | 'credential_expired' | 'invalid_credentials' };

/** A credential as the request presents it: its kind and the SHA-256 of its secret (the cache and the lookup key). */
export interface PresentedCredential {
  kind: CredentialKind;
  hash: string;
  /** The web app's session: a CLI token the browser holds in the session cookie (its writes need our Origin). */
  fromCookie?: true;
}

/**
 * The web app's session cookie: a CLI token, HttpOnly and SameSite=Strict (http/session-cookie.ts writes it). Over
 * HTTPS it is `__Host-rollcall_session`, and only that name is read there: a browser keeps a `__Host-` cookie only
 * when this host itself set it (Secure, Path=/, no Domain), so a sibling subdomain cannot plant a session of its
 * choosing, as it could with a plain name it sets for the parent domain. Plain HTTP (a laptop, a test) keeps the
 * plain name, which browsers refuse to prefix there.
 */
export const SESSION_COOKIE = 'rollcall_session';
export const SECURE_SESSION_COOKIE = '__Host-rollcall_session';

/** The session cookie's value in a Cookie header, or null (a browser sends `name=value` pairs split by `; `). */
function sessionCookie(header: string | string[] | undefined, secure: () => boolean): string | null {
  if (typeof header !== 'string') return null;
  let plain: string | null = null;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    if (name === SECURE_SESSION_COOKIE) return pair.slice(eq + 1).trim();
    if (name === SESSION_COOKIE && plain === null && !secure()) plain = pair.slice(eq + 1).trim();
  }
  return plain;
}

type Headers = Record<string, string | string[] | undefined>;
/** One place a request may carry a credential: what it holds there, 'malformed', or null when it holds none. */
type CredentialSource = (headers: Headers) => PresentedCredential | 'malformed' | null;

/** `X-API-KEY: rk_…` (the spec's header). */
const apiKeyHeader: CredentialSource = (headers) => {
  const value = headers['x-api-key'];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') return 'malformed';
  return API_KEY_PATTERN.test(value.trim()) ? { kind: 'api_key', hash: sha256Hex(value.trim()) } : 'malformed';
};

/**
 * `Authorization: Bearer …`: a CLI token, or an API key (some clients send keys that way). Another scheme counts
 * as a credential only alone (malformed then): beside X-API-KEY it may be a gateway's, and is not read.
 */
const bearerHeader: CredentialSource = (headers) => {
  const value = headers['authorization'];
  if (typeof value !== 'string' || value === '') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  if (!match) return /^Bearer(\s|$)/i.test(value) || !headers['x-api-key'] ? 'malformed' : null;
  const token = match[1];
  if (CLI_TOKEN_PATTERN.test(token)) return { kind: 'bearer', hash: sha256Hex(token) };
  if (API_KEY_PATTERN.test(token)) return { kind: 'api_key', hash: sha256Hex(token) };
  return 'malformed';
};

/** Every place a credential may come from; a request uses exactly one of them. */
const SOURCES: readonly CredentialSource[] = [apiKeyHeader, bearerHeader];

/**
 * The one credential a request presents: 'absent' when none, 'malformed' when it is there but unreadable, and
 * 'ambiguous' when it presents more than one (X-API-KEY and a Bearer token: which would be meant is not ours to
 * guess). The secret is hashed here, once per request: only its SHA-256 is stored, cached or compared. Over HTTPS
 * (`secureRequest`) only the `__Host-` session cookie counts.
 */
export function presentedCredential(headers: Headers, secureRequest: () => boolean = () => false): PresentedCredential | 'absent' | 'malformed' | 'ambiguous' {
  let found: PresentedCredential | 'malformed' | null = null;
  for (const source of SOURCES) {
    const presented = source(headers);
    if (presented === null) continue;
    if (found !== null) return 'ambiguous';
    found = presented;
  }
  if (found !== null) return found;
  // The web app's session cookie counts only when no header carries a credential: a script's explicit credential
  // always wins over a cookie its HTTP client happens to keep, and a cookie never makes a request ambiguous.
  const cookie = sessionCookie(headers['cookie'], secureRequest);
  if (cookie !== null) return CLI_TOKEN_PATTERN.test(cookie) ? { kind: 'bearer', hash: sha256Hex(cookie), fromCookie: true } : 'malformed';
  return 'absent';
}

function splitJoined(row: Record<string, unknown>): { user: UserRow; organization: OrganizationRow } {
  const user: Record<string, unknown> = {};
  const organization: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (column.startsWith('u__')) user[column.slice(3)] = value;
    else if (column.startsWith('o__')) organization[column.slice(3)] = value;
  }
  return { user: user as unknown as UserRow, organization: organization as unknown as OrganizationRow };
}

// The person's own settings ride along, so GET /v1/me/ answers from the cached credential with no query of its own.
const USER_COLUMNS: readonly (keyof UserRow)[] = ['uuid', 'organization_uuid', 'email', 'first_name', 'last_name', 'role', 'is_active', 'timezone', 'occupation', 'image', 'language', 'holiday_calendar', 'notifications', 'created_at', 'updated_at'];
const ORG_COLUMNS: readonly (keyof OrganizationRow)[] = ['uuid', 'name', 'slug', 'timezone', 'plan', 'plan_beta_enabled', 'exchange_enabled', 'image', 'created_at', 'updated_at'];
const joinedColumns = [...USER_COLUMNS.map((c) => `u.${c} as u__${c}`), ...ORG_COLUMNS.map((c) => `o.${c} as o__${c}`)];

/** One indexed lookup: the credential row joined with its owner and organization. */
export async function lookupCredential(db: Executor, presented: PresentedCredential, now: Date): Promise<Resolution> {
  const { hash } = presented;
  if (presented.kind === 'api_key') {
    const row = await db('api_keys as k')
      .join('users as u', 'u.uuid', 'k.owner_uuid')
      .join('organizations as o', 'o.uuid', 'k.organization_uuid')
      .where('k.secret_hash', hash)
      .first(['k.uuid as k__uuid', 'k.kind as k__kind', 'k.scopes as k__scopes', 'k.expires_at as k__expires_at', ...joinedColumns]);
    if (!row) return { ok: false, code: 'invalid_credentials' };
    if (row.k__expires_at && String(row.k__expires_at) <= now.toISOString()) return { ok: false, code: 'credential_expired' };
    return {
      ok: true,
      actor: {
        ...splitJoined(row),
        credential: {
          kind: 'api_key',
          uuid: row.k__uuid,
          keyKind: row.k__kind,
          scopes: readJson<string[]>(row.k__scopes, []),
          expiresAt: row.k__expires_at ?? null,
        },
      },
    };
  }
  const row = await db('cli_tokens as t')
    .join('users as u', 'u.uuid', 't.user_uuid')
    .join('organizations as o', 'o.uuid', 't.organization_uuid')
    .where('t.token_hash', hash)
    .first(['t.uuid as t__uuid', 't.expires_at as t__expires_at', 't.revoked_at as t__revoked_at', ...joinedColumns]);
  if (!row || row.t__revoked_at) return { ok: false, code: 'invalid_credentials' };
  const { user, organization } = splitJoined(row);
  if (!bool(user.is_active)) return { ok: false, code: 'invalid_credentials' };
  if (String(row.t__expires_at) <= now.toISOString()) return { ok: false, code: 'credential_expired' };
  return {
    ok: true,
    actor: { user, organization, credential: { kind: 'bearer', uuid: row.t__uuid, keyKind: null, scopes: [], expiresAt: row.t__expires_at } },
  };
}

/**
 * A person acting through a request their chat platform signed (Slack's `/rollcall kudos`): the request names the
 * person by their platform account, matched by e-mail, and acts as them with their role, as a CLI token would.
 */
export function chatPlatformActor(user: UserRow, organization: OrganizationRow, platform: string): Actor {
  return { user, organization, credential: { kind: 'bearer', uuid: `chat:${platform}`, keyKind: null, scopes: [], expiresAt: null } };
}
