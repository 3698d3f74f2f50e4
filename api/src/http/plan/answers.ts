import type { Context } from 'koa';
import type { StoredAnswer } from '../../db/idempotency-keys.ts';
import { notFound, unknownField } from '../../lib/errors.ts';
import { isUuid } from '../../lib/ids.ts';
import type { Deps } from '../deps.ts';
import { publicBase } from '../forwarded.ts';
import type { Params } from './calls.ts';

/** What every kind of Plan route does with the request and its answer (registrar.ts, upload.ts). */

export const AGENT_HEADER = 'x-service-agent-name';

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
