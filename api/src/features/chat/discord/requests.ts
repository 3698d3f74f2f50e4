import { createPublicKey, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { ApiError, badRequest, unauthorized } from '../../../lib/errors.ts';
import { receivingConnections } from '../../chat-platform/connection.ts';
import type { ChatConnection } from '../../chat-platform/connection.ts';
import type { ChatRequestDeps } from '../../chat-platform/request-deps.ts';

/**
 * Discord's interactions endpoint (docs/chat.md, "Discord"): every interaction (a PING when the URL is saved, the
 * `/rollcall` command, a button, a modal submitted) is one signed POST. Discord signs `{X-Signature-Timestamp}{raw
 * body}` with the application's Ed25519 key; Rollcall checks it with node:crypto against the public key the
 * connection was given (`discord-interactions` wraps the same check around tweetnacl: a dependency for three lines).
 */
export const INTERACTIONS_PATH = '/v1/integrations/discord/interactions/';
/** An interaction is far smaller (a modal of 5 inputs of 4,000 characters). */
export const MAX_REQUEST_BYTES = 256 * 1024;
/** A request whose timestamp is more than 5 minutes from now is refused (a replay). */
const MAX_SKEW_MS = 5 * 60_000;

export type DiscordDeps = ChatRequestDeps;

/** An Ed25519 public key as raw bytes becomes a KeyObject through its SPKI DER form (this prefix, then the 32 bytes). */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const keys = new Map<string, KeyObject>();
function publicKeyOf(hex: string): KeyObject {
  let key = keys.get(hex);
  if (!key) {
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(hex, 'hex')]), format: 'der', type: 'spki' });
    if (keys.size >= 1000) keys.delete(keys.keys().next().value!);
    keys.set(hex, key);
  }
  return key;
}

/** Whether `signature` (hex) is the application's Ed25519 signature of the timestamp and the body's bytes. */
export function signedBy(publicKeyHex: string, timestamp: string, raw: Buffer, signature: string): boolean {
  try {
    return verify(null, Buffer.concat([Buffer.from(timestamp, 'utf8'), raw]), publicKeyOf(publicKeyHex), Buffer.from(signature, 'hex'));
  } catch {
    return false;
  }
}

export interface VerifiedInteraction {
  connection: ChatConnection;
  body: Record<string, unknown>;
}

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const SNOWFLAKE = /^\d{15,21}$/;

function parseBody(raw: Buffer): Record<string, unknown> | null {
  try {
    const json: unknown = JSON.parse(raw.toString('utf8'));
    return isObject(json) ? json : null;
  } catch {
    return null;
  }
}

/**
 * Verifies an interaction before anything happens: a timestamp within 5 minutes of now, then a signature one
 * receiving Discord connection's public key verifies, found by the application the body names (or among those
 * of other applications: a request signed for another application than the one it names). Refusals: 401 (absent,
 * malformed, stale, not signed by a connected application), 403 `workspace_not_connected` (another application).
 */
export async function verifyInteraction(deps: DiscordDeps, raw: Buffer, headers: Record<string, string | string[] | undefined>): Promise<VerifiedInteraction> {
  const signature = header(headers, 'x-signature-ed25519');
  const timestamp = header(headers, 'x-signature-timestamp');
  if (!signature || !timestamp) throw unauthorized('credential_absent');
  if (!/^[0-9a-fA-F]{128}$/.test(signature) || !/^\d{1,12}$/.test(timestamp)) throw unauthorized('credential_malformed');
  if (Math.abs(deps.now().getTime() - Number(timestamp) * 1000) > MAX_SKEW_MS) throw unauthorized('credential_expired');
  const body = parseBody(raw);
  const application = body && typeof body.application_id === 'string' && SNOWFLAKE.test(body.application_id) ? body.application_id : null;
  const signer = (candidates: ChatConnection[]) => candidates.find((c) => c.publicKey && signedBy(c.publicKey, timestamp, raw, signature));
  const connection = signer(await receivingConnections(deps.db, deps.box, 'discord', application, 'ownTeam'))
    ?? signer(await receivingConnections(deps.db, deps.box, 'discord', application, 'otherTeams'));
  if (!connection) throw unauthorized('invalid_credentials');
  if (!body) throw badRequest('malformed_request', 'The body is not a JSON object.');
  if (!application || application !== connection.externalTeamId) {
    throw new ApiError(403, 'workspace_not_connected', `This interaction is for the Discord application ${String(application ?? 'named nowhere').slice(0, 40)}, which is not the one connected to Rollcall.`);
  }
  return { connection, body };
}

/** The Discord user who interacted (`member.user` in a server, `user` in a direct message), or null. */
export function userOf(body: Record<string, unknown>): { id: string; name: string } | null {
  const user = isObject(body.member) && isObject(body.member.user) ? body.member.user : isObject(body.user) ? body.user : null;
  if (!user || typeof user.id !== 'string' || !SNOWFLAKE.test(user.id)) return null;
  const name = typeof user.global_name === 'string' && user.global_name ? user.global_name : typeof user.username === 'string' ? user.username : user.id;
  return { id: user.id, name: name.slice(0, 100) };
}

/** The key an interaction is taken by once (chat_request_nonces): its id, unique per interaction. */
export function interactionNonce(body: Record<string, unknown>): string {
  if (typeof body.id !== 'string' || !SNOWFLAKE.test(body.id)) throw badRequest('malformed_request', 'The interaction has no id.');
  return `discord:interaction:${body.id}`;
}
