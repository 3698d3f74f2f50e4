import type { Config } from '../../../lib/config.ts';
import { badRequest, unauthorized } from '../../../lib/errors.ts';
import type { OutboundHttp } from '../../../outbound/outbound-http.ts';
import { sha256Hex } from '../../../lib/secrets.ts';
import { receivingConnections } from '../../chat-platform/connection.ts';
import type { ChatConnection } from '../../chat-platform/connection.ts';
import { KeySet, bearerJwt, readJwt, tokenRefusal, verifyJwt } from '../../chat-platform/jwt.ts';
import type { RequestDeps } from '../../chat-platform/jwt.ts';

/** The Chat app's HTTP endpoint URL (Chat API › Configuration › Connection settings): docs/chat.md. */
export const EVENTS_PATH = '/v1/integrations/google-chat/events/';
export const MAX_EVENT_BYTES = 1024 * 1024;
/** Who signs the tokens Google Chat sends an app whose authentication audience is its project number. */
const CHAT_ISSUER = 'chat@system.gserviceaccount.com';
const SKEW_MS = 5 * 60_000;

export type GoogleChatDeps = RequestDeps;

export const googleChatKeys = (http: OutboundHttp, config: Config): KeySet => new KeySet(http, config.chat.googleChatKeysUrl);

export interface VerifiedEvent {
  connection: ChatConnection;
  event: Record<string, unknown>;
  /** The request's own key (its token and body): a replay of both is refused. */
  nonce: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Verifies an event before anything happens: `Authorization: Bearer <JWT>` signed RS256 by a key of Google Chat's
 * (by key id), issued by chat@system.gserviceaccount.com, for the audience of a connected app's project number,
 * not expired (5 minutes of skew). The connection is the one whose project number the token is for: an app of
 * another organization (another project) is another connection, whose people and prompts are its own.
 */
export async function verifyEvent(deps: GoogleChatDeps, raw: string, authorization: string | undefined): Promise<VerifiedEvent> {
  const token = bearerJwt(authorization);
  let audience: unknown;
  try {
    audience = readJwt(token).claims.aud;
  } catch (err) {
    return tokenRefusal(err, 'Google Chat\'s');
  }
  const connection = (await receivingConnections(deps.db, deps.box, 'google_chat', null, 'ownTeam')).find((c) => c.projectNumber !== null && c.projectNumber === audience);
  if (!connection) throw unauthorized('invalid_credentials');
  try {
    await verifyJwt(token, { keyOf: (kid) => deps.keys.keyOf(kid, deps.now()), issuers: [CHAT_ISSUER], audience: connection.projectNumber!, now: deps.now(), skewMs: SKEW_MS });
  } catch (err) {
    return tokenRefusal(err, 'Google Chat\'s');
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
