import type { Config } from '../../../lib/config.ts';
import { ApiError, badRequest, unauthorized } from '../../../lib/errors.ts';
import type { OutboundHttp } from '../../../outbound/outbound-http.ts';
import { sha256Hex } from '../../../lib/secrets.ts';
import { receivingConnections, recordServiceUrl } from '../../chat-platform/connection.ts';
import type { ChatConnection } from '../../chat-platform/connection.ts';
import { KeySet, bearerJwt, readJwt, tokenRefusal, verifyJwt } from '../../chat-platform/jwt.ts';
import type { RequestDeps } from '../../chat-platform/jwt.ts';

/** The bot's messaging endpoint (Azure Bot › Configuration › Messaging endpoint): docs/chat.md. */
export const MESSAGES_PATH = '/v1/integrations/teams/messages/';
/** An activity is at most this (a card's submission is far smaller). */
export const MAX_ACTIVITY_BYTES = 1024 * 1024;
/** Who signs the tokens of the Bot Framework's channels, and the clock skew it allows. */
const BOT_FRAMEWORK_ISSUER = 'https://api.botframework.com';
const SKEW_MS = 5 * 60_000;
/** A call to Teams made while its request waits (a person's e-mail from the roster). */
export const IN_REQUEST_TIMEOUT_MS = 2_000;

export type TeamsDeps = RequestDeps;

export const teamsKeys = (http: OutboundHttp, config: Config): KeySet => new KeySet(http, config.chat.teamsOpenIdMetadataUrl, { metadata: true });

/** An activity the Bot Framework signed for one connection's bot, from that connection's tenant. */
export interface VerifiedActivity {
  connection: ChatConnection;
  activity: Record<string, unknown>;
  /** The Bot Connector service the activity came through (checked against the token's `serviceurl`). */
  serviceUrl: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseActivity(raw: string): Record<string, unknown> | null {
  try {
    const json: unknown = JSON.parse(raw);
    return isObject(json) ? json : null;
  } catch {
    return null;
  }
}

/** The tenant an activity names: `channelData.tenant.id`, else `conversation.tenantId`. */
function tenantOf(activity: Record<string, unknown> | null): string | null {
  const data = activity && isObject(activity.channelData) ? activity.channelData : null;
  const tenant = (data && isObject(data.tenant) ? data.tenant.id : undefined) ?? (activity && isObject(activity.conversation) ? activity.conversation.tenantId : undefined);
  return typeof tenant === 'string' && /^[0-9a-f-]{36}$/i.test(tenant) ? tenant.toLowerCase() : null;
}

/** The activity's service URL, when it is an https URL (it is where Rollcall sends; the outbound address policy applies too). */
function serviceUrlOf(activity: Record<string, unknown>): string | null {
  const value = activity.serviceUrl;
  if (typeof value !== 'string' || value.length > 500) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && !url.username && !url.password ? value.replace(/\/+$/, '') : null;
  } catch {
    return null;
  }
}

/**
 * Verifies an activity before anything happens: `Authorization: Bearer <JWT>` signed RS256 by a key of the Bot
 * Framework's OpenID metadata (by key id, endorsed for the activity's channel), issued by the Bot Framework, for
 * the audience of a connected bot's app id, not expired (5 minutes of skew), naming the activity's service URL.
 * The connection is the one whose app id the token is for; an activity from another tenant than the connection's
 * is refused (403). Every refusal is an error: nothing else runs.
 */
export async function verifyActivity(deps: TeamsDeps, raw: string, authorization: string | undefined): Promise<VerifiedActivity> {
  const token = bearerJwt(authorization);
  let audience: unknown;
  try {
    audience = readJwt(token).claims.aud;
  } catch (err) {
    return tokenRefusal(err, 'The Bot Framework\'s');
  }
  const activity = parseActivity(raw);
  const tenant = tenantOf(activity);
  const byApp = (candidates: ChatConnection[]) => candidates.find((c) => c.appId !== null && c.appId === audience);
  const own = byApp(await receivingConnections(deps.db, deps.box, 'microsoft_teams', tenant, 'ownTeam'));
  const connection = own ?? (tenant ? byApp(await receivingConnections(deps.db, deps.box, 'microsoft_teams', tenant, 'otherTeams')) : undefined);
  if (!connection) throw unauthorized('invalid_credentials');
  let claims;
  try {
    claims = await verifyJwt(token, {
      keyOf: (kid) => deps.keys.keyOf(kid, deps.now()), issuers: [BOT_FRAMEWORK_ISSUER], audience: connection.appId!, now: deps.now(), skewMs: SKEW_MS,
      endorsement: typeof activity?.channelId === 'string' ? activity.channelId : 'msteams',
    });
  } catch (err) {
    return tokenRefusal(err, 'The Bot Framework\'s');
  }
  if (!activity) throw badRequest('malformed_request', 'The body is not a JSON activity.');
  const serviceUrl = serviceUrlOf(activity);
  if (!serviceUrl) throw badRequest('malformed_request', 'The activity has no https serviceUrl.');
  // The token names the service the activity came through: an activity pointing Rollcall elsewhere is refused.
  if (typeof claims.serviceurl === 'string' && claims.serviceurl.replace(/\/+$/, '') !== serviceUrl) throw unauthorized('invalid_credentials');
  if (!tenant) throw badRequest('malformed_request', 'The activity names no Microsoft Entra tenant (channelData.tenant.id).');
  if (connection.externalTeamId !== tenant) {
    throw new ApiError(403, 'workspace_not_connected', `This activity comes from the Microsoft Entra tenant ${tenant}, which is not the one connected to Rollcall.`);
  }
  const team = isObject(activity.channelData) && isObject(activity.channelData.team) && typeof activity.channelData.team.id === 'string' ? activity.channelData.team.id.slice(0, 256) : null;
  if (connection.serviceUrl !== serviceUrl || (team && connection.rosterId !== team)) {
    await recordServiceUrl(deps.db, connection.organizationUuid, serviceUrl, team);
    Object.assign(connection, { serviceUrl, ...(team ? { rosterId: team } : {}) });
  }
  return { connection, activity, serviceUrl };
}

/** The key an activity is taken by (chat_request_nonces): its conversation and id, hashed. */
export const activityNonce = (activity: Record<string, unknown>): string | null => {
  const conversation = isObject(activity.conversation) ? activity.conversation.id : undefined;
  if (typeof activity.id !== 'string' || activity.id === '' || typeof conversation !== 'string') return null;
  return `teams:activity:${sha256Hex(`${conversation}\n${activity.id}`)}`;
};
