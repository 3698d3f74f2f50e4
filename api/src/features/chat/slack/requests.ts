import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError, badRequest, unauthorized } from '../../../lib/errors.ts';
import { sha256Hex } from '../../../lib/secrets.ts';
import { receivingConnections, recordTeam } from '../../chat-platform/connection.ts';
import type { ChatConnection } from '../../chat-platform/connection.ts';
import type { ChatRequestDeps } from '../../chat-platform/request-deps.ts';
import { SlackApi } from './api.ts';

/** The request URLs of a Slack app (docs/chat.md): Events API, interactivity, the `/rollcall` slash command. */
export const REQUEST_PATHS = {
  events: '/v1/integrations/slack/events/',
  interactions: '/v1/integrations/slack/interactions/',
  commands: '/v1/integrations/slack/commands/',
} as const;
export type RequestKind = keyof typeof REQUEST_PATHS;

/** A request's body is at most this (Slack's largest, a modal's submission, is far smaller). */
export const MAX_REQUEST_BYTES = 1024 * 1024;
/** Slack's rule: a request whose timestamp is more than 5 minutes from now is refused (a replay). */
const MAX_SKEW_MS = 5 * 60_000;
/** A call to Slack made while Slack waits for our answer (which must come within 3 s). */
export const IN_REQUEST_TIMEOUT_MS = 2_000;

/** What the Slack request handlers need of the app. */
export type SlackDeps = ChatRequestDeps;

/** Slack's v0 signature of a request: `v0=` and the hex HMAC-SHA256 of `v0:{timestamp}:{raw body}` with the signing secret. */
export const slackSignature = (secret: string, timestamp: string, raw: string): string =>
  `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${raw}`).digest('hex')}`;

/** Compares in constant time (both are `v0=` and 64 hex digits: checked before). */
const sameSignature = (a: string, b: string): boolean => timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A request whose signature one connection's signing secret made, from that connection's workspace. */
export interface VerifiedRequest {
  connection: ChatConnection;
  /** The parsed body: the Events API's JSON, an interaction's `payload`, a command's form fields. */
  body: Record<string, unknown>;
  /** Once per request: a replay of the same bytes (same signature) is refused (nonces.ts). */
  signature: string;
}

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The body as Slack sends it to each request URL; null when it cannot be read so. */
function parseBody(kind: RequestKind, raw: string): Record<string, unknown> | null {
  try {
    if (kind === 'events') {
      const json: unknown = JSON.parse(raw);
      return isObject(json) ? json : null;
    }
    const form = new URLSearchParams(raw);
    if (kind === 'commands') return Object.fromEntries(form);
    const payload: unknown = JSON.parse(form.get('payload') ?? '');
    return isObject(payload) ? payload : null;
  } catch {
    return null;
  }
}

/** The workspace a request names: `team_id` (events, commands) or `team.id` (interactions, else the user's). */
function teamOf(body: Record<string, unknown> | null): string | null {
  if (!body) return null;
  const team = body.team_id ?? (isObject(body.team) ? body.team.id : undefined) ?? (isObject(body.user) ? body.user.team_id : undefined);
  return typeof team === 'string' && /^[A-Z0-9]{1,64}$/.test(team) ? team : null;
}

/**
 * Verifies a request to one of the Slack request URLs before anything happens: a timestamp within 5 minutes of
 * now, then a signature that one receiving connection's signing secret made (compared in constant time); the
 * connection is found by the workspace the body names (or tried among those not yet tied to one). A request
 * from another workspace than the connection's is refused. Every refusal is an error: nothing else runs.
 */
export async function verifyRequest(deps: SlackDeps, kind: RequestKind, raw: string, headers: Record<string, string | string[] | undefined>): Promise<VerifiedRequest> {
  const timestamp = header(headers, 'x-slack-request-timestamp');
  const signature = header(headers, 'x-slack-signature');
  if (!timestamp || !signature) throw unauthorized('credential_absent');
  if (!/^\d{1,12}$/.test(timestamp) || !/^v0=[0-9a-f]{64}$/.test(signature)) throw unauthorized('credential_malformed');
  if (Math.abs(deps.now().getTime() - Number(timestamp) * 1000) > MAX_SKEW_MS) throw unauthorized('credential_expired');
  const body = parseBody(kind, raw);
  const team = teamOf(body);
  const signedBy = (candidates: ChatConnection[]) => candidates.find((c) => c.signingSecret && sameSignature(slackSignature(c.signingSecret, timestamp, raw), signature));
  const connection = signedBy(await receivingConnections(deps.db, deps.box, 'slack', team, 'ownTeam'))
    ?? (team ? signedBy(await receivingConnections(deps.db, deps.box, 'slack', team, 'otherTeams')) : undefined);
  if (!connection) throw unauthorized('invalid_credentials');
  if (!body) throw badRequest('malformed_request', kind === 'events' ? 'The body is not a JSON object.' : kind === 'interactions' ? 'The body has no JSON `payload` field.' : 'The body is not a form.');
  // The Events API's URL check names no workspace: Slack sends it once when the URL is pasted.
  if (body.type !== 'url_verification') await checkTeam(deps, connection, team);
  return { connection, body, signature };
}

/**
 * The request's workspace must be the connection's. Its bot token tells which that is (`auth.test`), asked once,
 * on the first request, and kept (a new token forgets it).
 */
async function checkTeam(deps: SlackDeps, connection: ChatConnection, team: string | null): Promise<void> {
  if (!team) throw badRequest('malformed_request', 'The request names no Slack workspace (team_id).');
  let own = connection.externalTeamId;
  if (!own) {
    try {
      own = await new SlackApi(deps.http, deps.config.chat.slackApiUrl, connection.botToken ?? '', IN_REQUEST_TIMEOUT_MS).teamId();
    } catch (err) {
      deps.logger.warn({ organization: connection.organizationUuid, err: String(err) }, 'slack auth.test failed: the workspace of a request cannot be checked');
      throw new ApiError(503, 'platform_unreachable', 'Slack could not be asked which workspace this connection belongs to; Slack retries the request.');
    }
    await recordTeam(deps.db, connection.organizationUuid, own);
  }
  if (own !== team) throw new ApiError(403, 'workspace_not_connected', `This request comes from the Slack workspace ${team}, which is not the one connected to Rollcall.`);
}

/** The key a request is remembered by (chat_request_nonces): its signature, hashed. */
export const signatureNonce = (signature: string): string => `slack:sig:${sha256Hex(signature)}`;
