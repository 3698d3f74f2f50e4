import type { Config } from '../../../lib/config.ts';
import type { Db } from '../../../db/connection.ts';
import type { Logger } from '../../../lib/logger.ts';
import { ApiError, badRequest, unauthorized } from '../../../lib/errors.ts';
import type { SecretBox } from '../../../outbound/secret-box.ts';
import type { OutboundHttp } from '../../../outbound/outbound-http.ts';
import { sha256Hex } from '../../../lib/secrets.ts';
import { receivingConnections } from '../../chat-platform/connection.ts';
import type { ChatConnection } from '../../chat-platform/connection.ts';
import { JwtRefused, KeySet, readJwt, verifyJwt } from '../../chat-platform/jwt.ts';
import { PlatformError } from '../../chat-platform/platform-http.ts';

/** The Chat app's HTTP endpoint URL (Chat API › Configuration › Connection settings): docs/chat.md. */
export const EVENTS_PATH = '/v1/integrations/google-chat/events/';
export const MAX_EVENT_BYTES = 1024 * 1024;
/** Who signs the tokens Google Chat sends an app whose authentication audience is its project number. */
const CHAT_ISSUER = 'chat@system.gserviceaccount.com';
const SKEW_MS = 5 * 60_000;

export interface GoogleChatDeps {
  db: Db;
  box: SecretBox;
  http: OutboundHttp;
  config: Config;
  logger: Logger;
  now: () => Date;
  kick: () => void;
  /** Google Chat's signing keys (GOOGLE_CHAT_KEYS_URL, a JWKS), kept. */
  keys: KeySet;
}

export const googleChatKeys = (http: OutboundHttp, config: Config): KeySet => new KeySet(http, config.chat.googleChatKeysUrl);

export interface VerifiedEvent {
  connection: ChatConnection;
  event: Record<string, unknown>;
  /** The request's own key (its token and body): a replay of both is refused. */
  nonce: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const refused = (err: unknown): never => {
  if (err instanceof JwtRefused) throw unauthorized(err.reason === 'expired' ? 'credential_expired' : err.reason === 'malformed' ? 'credential_malformed' : 'invalid_credentials');
  if (err instanceof PlatformError) throw new ApiError(503, 'platform_unreachable', 'Google Chat\'s signing keys could not be fetched; try again.');
  throw err;
};

/**
 * Verifies an event before anything happens: `Authorization: Bearer <JWT>` signed RS256 by a key of Google Chat's
 * (by key id), issued by chat@system.gserviceaccount.com, for the audience of a connected app's project number,
 * not expired (5 minutes of skew). The connection is the one whose project number the token is for: an app of
 * another organization (another project) is another connection, whose people and prompts are its own.
 */
export async function verifyEvent(deps: GoogleChatDeps, raw: string, authorization: string | undefined): Promise<VerifiedEvent> {
  // Anything but a bearer JWT (an API key, a CLI token) is no credential here.
  const bearer = /^Bearer (\S+\.\S+\.\S*)$/.exec(authorization ?? '');
  if (!bearer) throw unauthorized('credential_absent');
  const match = /^([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(bearer[1]);
  if (!match || match[1].length > 8192) throw unauthorized('credential_malformed');
  const token = match[1];
  let audience: unknown;
  try {
    audience = readJwt(token).claims.aud;
  } catch (err) {
    return refused(err);
  }
  const connection = (await receivingConnections(deps.db, deps.box, 'google_chat', null, 'ownTeam')).find((c) => c.projectNumber !== null && c.projectNumber === audience);
  if (!connection) throw unauthorized('invalid_credentials');
  try {
    await verifyJwt(token, { keyOf: (kid) => deps.keys.keyOf(kid, deps.now()), issuers: [CHAT_ISSUER], audience: connection.projectNumber!, now: deps.now(), skewMs: SKEW_MS });
  } catch (err) {
    return refused(err);
  }
  let event: unknown;
  try {
    event = JSON.parse(raw);
  } catch {
    event = null;
  }
  if (!isObject(event)) throw badRequest('malformed_request', 'The body is not a JSON event.');
  return { connection, event, nonce: `gchat:req:${sha256Hex(`${token}\n${raw}`)}` };
}
