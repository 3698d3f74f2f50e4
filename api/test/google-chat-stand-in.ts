import { createVerify, generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { signJwt } from '../src/features/chat-platform/jwt.ts';
import { startHttpsReceiver } from './receivers.ts';
import type { Received } from './receivers.ts';

/**
 * A stand-in of Google Chat for tests, on both sides of a Chat app:
 * - Google Chat's signing keys (a JWKS: an RSA key pair generated here), Google's OAuth token endpoint (it checks
 *   the service account's signed assertion), and the Chat API: spaces:findDirectMessage by e-mail, messages
 *   created and updated, the app's spaces. Every call is recorded.
 * - the events Chat sends to the app's endpoint, with a token signed by that key for the project number.
 */
export const PROJECT = '414141414141';
export const CHAT_TOKEN = 'gchat-access-token';
const KID = 'gchat-key-1';
const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
export const CHAT_KEY = pair();
export const FORGED_KEY = pair();
const ACCOUNT_KEY = pair();
const CLIENT_EMAIL = 'rollcall-app@acme-chat.iam.gserviceaccount.com';
/** The Chat app's service-account key file, as Google Cloud gives it. */
export const SERVICE_ACCOUNT = JSON.stringify({
  type: 'service_account', project_id: 'acme-chat', private_key_id: 'sa-key-1', client_email: CLIENT_EMAIL,
  private_key: ACCOUNT_KEY.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
});
const pem = (key: KeyObject) => key.export({ type: 'pkcs1', format: 'pem' }).toString();

export interface ChatUser {
  name: string;
  email: string;
  displayName: string;
  /** Their direct-message space with the app. */
  dm: string;
}

export interface GoogleChatStandIn {
  url: string;
  env: Record<string, string>;
  received: Received[];
  calls(method: string, path: RegExp): Received[];
  addUser(email: string, displayName: string): ChatUser;
  token(now: number, claims?: Record<string, unknown>, key?: KeyObject): string;
  close(): Promise<void>;
}

export async function startGoogleChatStandIn(): Promise<GoogleChatStandIn> {
  const users: ChatUser[] = [];
  let counter = 0;
  const jwk = { ...CHAT_KEY.publicKey.export({ format: 'jwk' }), kid: KID, use: 'sig', alg: 'RS256' };
  const rx = await startHttpsReceiver((req) => {
    const url = new URL(req.url, 'https://chat.test');
    const path = url.pathname;
    if (path === '/keys') return { status: 200, body: { keys: [jwk] } };
    if (path === '/token') {
      const form = new URLSearchParams(req.body);
      const [head, body, sig] = (form.get('assertion') ?? '').split('.');
      const claims = body ? JSON.parse(Buffer.from(body, 'base64url').toString()) : {};
      const valid = sig && createVerify('RSA-SHA256').update(`${head}.${body}`).verify(ACCOUNT_KEY.publicKey, Buffer.from(sig, 'base64url'));
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || !valid || claims.iss !== CLIENT_EMAIL || claims.scope !== 'https://www.googleapis.com/auth/chat.bot') {
        return { status: 400, body: { error: 'invalid_grant' } };
      }
      return { status: 200, body: { access_token: CHAT_TOKEN, expires_in: 3599, token_type: 'Bearer' } };
    }
    if (!path.startsWith('/chat/v1/')) return { status: 404, body: {} };
    if (req.headers.authorization !== `Bearer ${CHAT_TOKEN}`) return { status: 401, body: { error: { code: 401, status: 'UNAUTHENTICATED' } } };
    const rest = path.slice('/chat/v1/'.length);
    if (rest === 'spaces:findDirectMessage') {
      const email = (url.searchParams.get('name') ?? '').replace(/^users\//, '').toLowerCase();
      const user = users.find((u) => u.email === email);
      return user ? { status: 200, body: { name: user.dm, spaceType: 'DIRECT_MESSAGE' } } : { status: 404, body: { error: { code: 404, status: 'NOT_FOUND' } } };
    }
    if (rest === 'spaces' && req.method === 'GET') return { status: 200, body: { spaces: [{ name: 'spaces/STANDUP', displayName: 'Stand-up', spaceType: 'SPACE' }] } };
    if (/^spaces\/[^/]+\/messages$/.test(rest) && req.method === 'POST') return { status: 200, body: { name: `${rest}/M${++counter}` } };
    if (/^spaces\/[^/]+\/messages\/[^/]+$/.test(rest) && req.method === 'PATCH') return { status: 200, body: { name: rest } };
    return { status: 404, body: {} };
  });
  const base = rx.url;
  return {
    url: base,
    env: { GOOGLE_CHAT_API_URL: `${base}/chat`, GOOGLE_CHAT_KEYS_URL: `${base}/keys`, GOOGLE_TOKEN_URL: `${base}/token` },
    received: rx.received,
    calls: (method, path) => rx.received.filter((r) => r.method === method && path.test(new URL(r.url, 'https://chat.test').pathname)),
    addUser(email, displayName) {
      const n = users.length + 1;
      const user = { name: `users/10${n}`, email: email.toLowerCase(), displayName, dm: `spaces/DM${n}` };
      users.push(user);
      return user;
    },
    token(now, claims = {}, key = CHAT_KEY.privateKey) {
      return signJwt({ iss: 'chat@system.gserviceaccount.com', aud: PROJECT, iat: now, exp: now + 3600, ...claims }, pem(key), KID);
    },
    close: () => rx.close(),
  };
}

const base = (user: ChatUser) => ({ eventTime: '2026-03-10T08:05:00.000Z', user: { name: user.name, displayName: user.displayName, email: user.email, type: 'HUMAN' }, space: { name: user.dm, type: 'DM', spaceType: 'DIRECT_MESSAGE' } });

/** A click on a card's button that runs one of the app's functions (a dialog asked for, with `dialog`). */
export const clickEvent = (user: ChatUser, fn: string, parameters: Record<string, string>, dialog?: 'REQUEST_DIALOG' | 'SUBMIT_DIALOG', formInputs: Record<string, string[]> = {}) => ({
  type: 'CARD_CLICKED', ...base(user), ...(dialog ? { isDialogEvent: true, dialogEventType: dialog } : {}),
  common: { invokedFunction: fn, parameters, formInputs: Object.fromEntries(Object.entries(formInputs).map(([k, v]) => [k, { stringInputs: { value: v } }])) },
});

export const messageEvent = (user: ChatUser, text: string) => ({ type: 'MESSAGE', ...base(user), message: { name: `${user.dm}/messages/x${Math.random()}`, text, argumentText: text } });
