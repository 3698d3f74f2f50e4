import { generateKeyPairSync, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { startHttpsReceiver } from './receivers.ts';
import type { Received } from './receivers.ts';

/**
 * A stand-in of Discord for tests, on both sides of the conversation:
 * - its REST API (DISCORD_API_URL = `{url}/api/v10`), a real local HTTPS server that records every call and answers
 *   as Discord documents: users/@me/channels (a direct-message channel), channels/…/messages (post, edit),
 *   users/@me/guilds and guilds/…/channels. A wrong bot token answers 401.
 * - the interactions Discord sends to Rollcall, signed with a real Ed25519 key pair made here (the connection's
 *   `public_key` is its public half): `X-Signature-Ed25519` over `X-Signature-Timestamp` + the raw body.
 */
export const DISCORD_TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB';
export const APPLICATION_ID = '1100000000000000001';
export const GUILD = '1400000000000000001';
export const REPORT_CHANNEL = '1500000000000000001';

export interface DiscordKeys {
  privateKey: KeyObject;
  /** The public key as Discord shows it: 64 hex digits. */
  publicKeyHex: string;
}

export function discordKeys(): DiscordKeys {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' }) as { x: string };
  return { privateKey, publicKeyHex: Buffer.from(jwk.x, 'base64url').toString('hex') };
}

/** Discord's signing: Ed25519 of the timestamp followed by the body, hex. */
export const discordSignature = (keys: DiscordKeys, timestamp: string, raw: string): string =>
  sign(null, Buffer.concat([Buffer.from(timestamp), Buffer.from(raw)]), keys.privateKey).toString('hex');

export function signedHeaders(keys: DiscordKeys, raw: string, nowSeconds: number): Record<string, string> {
  const timestamp = String(Math.floor(nowSeconds));
  return { 'content-type': 'application/json', 'x-signature-ed25519': discordSignature(keys, timestamp, raw), 'x-signature-timestamp': timestamp };
}

/** The direct-message channel the stand-in gives a user. */
export const dmChannel = (userId: string): string => `9${userId.slice(1)}`;

let interactionCounter = 0;
/** An interaction as Discord sends it from a direct message with the bot (`user`, no `member`). */
export function interactionBody(type: number, userId: string, data: Record<string, unknown> | null, options: { application?: string; id?: string } = {}): string {
  interactionCounter += 1;
  return JSON.stringify({
    id: options.id ?? String(1300000000000000000n + BigInt(interactionCounter)), application_id: options.application ?? APPLICATION_ID, type,
    ...(data ? { data } : {}), channel_id: dmChannel(userId), user: { id: userId, username: `user${userId.slice(-3)}`, global_name: null }, token: 'interaction-token', version: 1,
  });
}

export const commandData = (sub: string, options: Record<string, unknown>[] = [], resolved?: Record<string, unknown>) => ({
  id: '1600000000000000001', name: 'rollcall', type: 1, options: [{ type: 1, name: sub, ...(options.length ? { options } : {}) }], ...(resolved ? { resolved } : {}),
});
export const buttonData = (customId: string) => ({ custom_id: customId, component_type: 2 });
export const modalData = (customId: string, values: Record<string, string>) => ({
  custom_id: customId, components: Object.entries(values).map(([id, value]) => ({ type: 1, components: [{ type: 4, custom_id: id, value }] })),
});

export interface DiscordStandIn {
  api: string;
  received: Received[];
  /** Calls of one method and path (snowflakes as `:id`), in order: `calls('POST', '/channels/:id/messages')`. */
  calls(method: string, path: string): Received[];
  close(): Promise<void>;
}

export async function startDiscordStandIn(): Promise<DiscordStandIn> {
  let message = 0;
  const pathOf = (url: string) => new URL(url, 'https://discord.test').pathname.replace(/^\/api\/v10/, '');
  const pattern = (path: string) => path.replace(/\/\d{15,21}(?=\/|$)/g, '/:id');
  const rx = await startHttpsReceiver((req) => {
    if (req.headers.authorization !== `Bot ${DISCORD_TOKEN}`) return { status: 401, body: { message: '401: Unauthorized', code: 0 } };
    const path = pathOf(req.url);
    const p = pattern(path);
    if (req.method === 'POST' && p === '/users/@me/channels') return { status: 200, body: { id: dmChannel(String(req.json?.recipient_id)), type: 1 } };
    if (req.method === 'POST' && p === '/channels/:id/messages') return { status: 200, body: { id: String(1700000000000000000n + BigInt(++message)), channel_id: path.split('/')[2] } };
    if (req.method === 'PATCH' && p === '/channels/:id/messages/:id') return { status: 200, body: { id: path.split('/')[4], channel_id: path.split('/')[2] } };
    if (req.method === 'GET' && p === '/users/@me/guilds') return { status: 200, body: [{ id: GUILD, name: 'Acme' }] };
    if (req.method === 'GET' && path === `/guilds/${GUILD}/channels`) {
      return { status: 200, body: [{ id: REPORT_CHANNEL, name: 'standup', type: 0, position: 1 }, { id: '1500000000000000002', name: 'Lounge', type: 2, position: 2 }] };
    }
    return { status: 404, body: { message: `no ${req.method} ${path}`, code: 0 } };
  });
  return {
    api: `${rx.url}/api/v10`,
    received: rx.received,
    calls: (method, path) => rx.received.filter((r) => r.method === method && pattern(pathOf(r.url)) === path),
    close: () => rx.close(),
  };
}
