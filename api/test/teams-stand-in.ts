import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { signJwt } from '../src/features/chat-platform/jwt.ts';
import { startHttpsReceiver } from './receivers.ts';
import type { Received } from './receivers.ts';

/**
 * A stand-in of Microsoft Teams for tests, on both sides of a Bot Framework bot:
 * - the Bot Framework's OpenID metadata and JWKS (its signing key: an RSA key pair generated here, endorsed for
 *   `msteams`), the Microsoft identity platform's token endpoint (client credentials), and the Bot Connector API
 *   at the activities' serviceUrl: conversations created, activities posted and updated, a conversation's or a
 *   team's members (by id, Microsoft Entra object id or e-mail), a team's channels. Every call is recorded.
 * - the activities Teams sends to the bot's messaging endpoint, with a token signed by that key.
 */
export const APP_ID = '6f1f0e2a-4b7c-4c1e-9a55-0d3c2b1a0f99';
export const APP_PASSWORD = 'bot~secret.value_123';
export const TENANT = '0d3a6c2e-1111-4a4a-8b8b-2c2c2c2c2c2c';
export const TEAM_ID = '19:team-acme@thread.tacv2';
export const BOT_TOKEN = 'teams-connector-token';
const KID = 'bf-key-1';

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
/** The Bot Framework's key, and another (a forger's), made once for all tests. */
export const FRAMEWORK_KEY = pair();
export const OTHER_KEY = pair();
const pem = (key: KeyObject) => key.export({ type: 'pkcs1', format: 'pem' }).toString();

export interface TeamsMember {
  id: string;
  aadObjectId: string;
  email: string;
  name: string;
}

export interface TeamsStandIn {
  url: string;
  serviceUrl: string;
  env: Record<string, string>;
  received: Received[];
  /** Calls to the Bot Connector whose path matches. */
  calls(method: string, path: RegExp): Received[];
  addMember(email: string, name: string): TeamsMember;
  /** A token as the Bot Framework signs it (now: the app's clock, in seconds). */
  token(now: number, claims?: Record<string, unknown>, key?: KeyObject): string;
  close(): Promise<void>;
}

export async function startTeamsStandIn(): Promise<TeamsStandIn> {
  const members: TeamsMember[] = [];
  let counter = 0;
  const jwk = { ...FRAMEWORK_KEY.publicKey.export({ format: 'jwk' }), kid: KID, use: 'sig', endorsements: ['msteams'] };
  const rx = await startHttpsReceiver((req) => {
    const url = new URL(req.url, 'https://teams.test');
    const path = url.pathname;
    if (path === '/.well-known/openidconfiguration') return { status: 200, body: { issuer: 'https://api.botframework.com', jwks_uri: `${base}/keys` } };
    if (path === '/keys') return { status: 200, body: { keys: [jwk] } };
    if (path === `/login/${TENANT}/oauth2/v2.0/token`) {
      const form = new URLSearchParams(req.body);
      if (form.get('client_id') !== APP_ID || form.get('client_secret') !== APP_PASSWORD) return { status: 401, body: { error: 'invalid_client' } };
      return { status: 200, body: { token_type: 'Bearer', expires_in: 3600, access_token: BOT_TOKEN } };
    }
    if (!path.startsWith('/connector/')) return { status: 404, body: {} };
    if (req.headers.authorization !== `Bearer ${BOT_TOKEN}`) return { status: 401, body: { message: 'Authorization has been denied for this request.' } };
    const rest = path.slice('/connector'.length);
    const find = (id: string) => members.find((m) => m.id === id || m.aadObjectId === id || m.email === id.toLowerCase());
    if (req.method === 'POST' && rest === '/v3/conversations') {
      const member = find(String(req.json?.members?.[0]?.id ?? ''));
      return member ? { status: 201, body: { id: `a:personal-${member.aadObjectId}` } } : { status: 404, body: { error: { code: 'NotFound' } } };
    }
    let m = /^\/v3\/conversations\/([^/]+)\/activities(?:\/([^/]+))?$/.exec(rest);
    if (m && req.method === 'POST') return { status: 201, body: { id: `activity-${++counter}` } };
    if (m && req.method === 'PUT') return { status: 200, body: { id: decodeURIComponent(m[2] ?? '') } };
    m = /^\/v3\/conversations\/([^/]+)\/members\/([^/]+)$/.exec(rest);
    if (m && req.method === 'GET') {
      const member = find(decodeURIComponent(m[2]));
      return member ? { status: 200, body: { id: member.id, name: member.name, aadObjectId: member.aadObjectId, email: member.email, userPrincipalName: member.email, tenantId: TENANT } } : { status: 404, body: { error: { code: 'MemberNotFoundInConversation' } } };
    }
    m = /^\/v3\/teams\/([^/]+)\/conversations$/.exec(rest);
    if (m && req.method === 'GET') return { status: 200, body: { conversations: [{ id: TEAM_ID, name: null }, { id: '19:standup@thread.tacv2', name: 'Stand-up' }] } };
    return { status: 404, body: {} };
  });
  const base = rx.url;
  return {
    url: base,
    serviceUrl: `${base}/connector/`,
    env: { TEAMS_OPENID_METADATA_URL: `${base}/.well-known/openidconfiguration`, TEAMS_LOGIN_URL: `${base}/login` },
    received: rx.received,
    calls: (method, path) => rx.received.filter((r) => r.method === method && path.test(new URL(r.url, 'https://teams.test').pathname)),
    addMember(email, name) {
      const member = { id: `29:${randomUUID()}`, aadObjectId: randomUUID(), email: email.toLowerCase(), name };
      members.push(member);
      return member;
    },
    token(now, claims = {}, key = FRAMEWORK_KEY.privateKey) {
      return signJwt({ iss: 'https://api.botframework.com', aud: APP_ID, serviceurl: `${base}/connector/`, nbf: now - 60, iat: now - 60, exp: now + 3600, ...claims }, pem(key), KID);
    },
    close: () => rx.close(),
  };
}

/** An activity from a person in their personal chat with the bot (or, with `conversation`, elsewhere). */
export function activity(stand: Pick<TeamsStandIn, 'serviceUrl'>, from: TeamsMember, fields: Record<string, unknown>, options: { tenant?: string; conversation?: Record<string, unknown> } = {}) {
  const tenant = options.tenant ?? TENANT;
  return {
    type: 'message', id: `${Date.now()}${Math.random().toString(36).slice(2, 8)}`, channelId: 'msteams', serviceUrl: stand.serviceUrl, timestamp: '2026-03-10T08:05:00.000Z',
    from: { id: from.id, name: from.name, aadObjectId: from.aadObjectId },
    conversation: options.conversation ?? { id: `a:personal-${from.aadObjectId}`, conversationType: 'personal', tenantId: tenant },
    recipient: { id: `28:${APP_ID}`, name: 'Rollcall' },
    channelData: { tenant: { id: tenant } },
    ...fields,
  };
}

/** The bot added to a team: Teams tells it with a conversationUpdate in the team's General channel. */
export function installedInTeam(stand: Pick<TeamsStandIn, 'serviceUrl'>, by: TeamsMember) {
  return activity(stand, by, { type: 'conversationUpdate', membersAdded: [{ id: `28:${APP_ID}` }], channelData: { tenant: { id: TENANT }, team: { id: TEAM_ID, name: 'Acme' }, eventType: 'teamMemberAdded' } }, {
    conversation: { id: TEAM_ID, conversationType: 'channel', isGroup: true, tenantId: TENANT },
  });
}
