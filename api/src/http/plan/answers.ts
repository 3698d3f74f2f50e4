import type { Context } from 'koa';
import type { StoredAnswer } from '../../db/idempotency-keys.ts';
import { badRequest, notFound, unknownField } from '../../lib/errors.ts';
import { isUuid } from '../../lib/ids.ts';
import type { Deps } from '../deps.ts';
import { publicBase } from '../forwarded.ts';
import type { Params } from './calls.ts';

/** What every kind of Plan route does with the request and its answer (registrar.ts, upload.ts). */

export const AGENT_HEADER = 'x-service-agent-name';
/** The DailyBot client's name for the same header (an alias: same encoding, same rules). */
export const CLIENT_AGENT_HEADER = 'x-dailybot-agent-name';

/**
 * The agent a request names, as the raw header value resolveAgentName reads: `X-Service-Agent-Name`, or the
 * client's `X-Dailybot-Agent-Name`, or else a JSON body's `agent_name` (plain text, which the client sends on its
 * JSON writes). The body field is taken out of the body: it is the request's attribution, not a field of the object.
 */
export function agentNameInput(ctx: Context): string | string[] | undefined {
  const header = ctx.headers[AGENT_HEADER] ?? ctx.headers[CLIENT_AGENT_HEADER];
  const body = ctx.request.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body) || !Object.hasOwn(body, 'agent_name')) return header;
  const { agent_name: named, ...rest } = body;
  ctx.request.body = rest as typeof ctx.request.body;
  if (header !== undefined) return header;
  if (typeof named !== 'string') throw badRequest('invalid_agent_attribution', 'agent_name must be text.', { parameter: 'agent_name' });
  return encodeURIComponent(named);
}

export function send(ctx: Context, answer: StoredAnswer, replayed = false): void {
  ctx.status = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
  if (replayed) ctx.set('Idempotency-Replayed', 'true');
  if (answer.status !== 204) ctx.body = answer.body ?? {};
}

export const baseUrl = (ctx: Context, deps: Deps): string => publicBase(ctx, deps.config.publicUrl);

/** Path parameters: uuids (lower-cased) unless declared otherwise; anything else names nothing (404). */
export function checkedParams(ctx: Context, keyParams: string[]): Params {
  const params: Params = {};
  for (const [name, value] of Object.entries(ctx.params as Params)) {
    if (keyParams.includes(name)) params[name] = value;
    else if (isUuid(value)) params[name] = value.toLowerCase();
    else throw notFound();
  }
  return params;
}

/** Any field in a body the operation does not take is refused, as everywhere (CONTRACT §2). */
export function noBodyFields(body: unknown): Record<string, never> {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const [first] = Object.keys(body);
    if (first !== undefined) throw unknownField(first);
  }
  return {};
}
