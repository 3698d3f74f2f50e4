import type { Context } from 'koa';
import type { Deps } from '../../../deps.ts';
import { throttled } from '../../../http/errors.ts';
import { setRateLimitHeaders } from '../../../http/rate-limit.ts';
import type { Actor } from '../../auth/credentials.ts';
import { actsAsPerson } from './scopes.ts';

/** The spec's Plan minute ceilings, per actor: which one a route counts against. */
export type CeilingKind = 'reads' | 'writes' | 'bulk' | 'delta';

/**
 * Who a ceiling (and an Idempotency-Key) belongs to: the person for personal keys and Bearer tokens (all of a
 * person's credentials share one budget), the credential itself for agent and organization keys.
 */
export const actorId = (actor: Actor): string => (actsAsPerson(actor) ? actor.user.uuid : actor.credential.uuid);

/**
 * Counts the request against its minute ceiling through the same write-behind counters as the hourly budgets
 * (http/rate-counters.ts), sets RateLimit-Policy and RateLimit, and answers 429 `throttled` with
 * `extra.retry_after` and Retry-After when over. Returns null when the count was known at once (no promise).
 */
export function countAgainstCeiling(deps: Deps, ctx: Context, actor: Actor, kind: CeilingKind): Promise<void> | null {
  const window = { policy: `plan-${kind}`, limit: deps.config.planMinuteLimits[kind], seconds: 60 };
  const nowSeconds = Math.floor(deps.clock.now().getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % window.seconds);
  const apply = (count: number): void => {
    const usage = { allowed: count <= window.limit, remaining: Math.max(0, window.limit - count), resetSeconds: windowStart + window.seconds - nowSeconds };
    setRateLimitHeaders(ctx, window, usage);
    if (!usage.allowed) throw throttled(usage.resetSeconds);
  };
  const count = deps.rateCounters.hit(`plan-${kind}:${actorId(actor)}`, windowStart, window.seconds);
  if (typeof count === 'number') {
    apply(count);
    return null;
  }
  return count.then(apply);
}
