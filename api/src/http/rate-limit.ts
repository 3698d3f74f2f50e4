import type { Context, Next } from 'koa';
import type { Executor } from '../db/connection.ts';
import { addToCounter } from './rate-counters.ts';
import type { Deps } from './deps.ts';
import type { RateLimitScope } from '../lib/config.ts';
import { throttled } from '../lib/errors.ts';
import { actorOf } from './auth.ts';

export interface Window {
  /** Label in the RateLimit headers, for example "reads" or "plan-writes". */
  policy: string;
  limit: number;
  seconds: number;
}

export interface Consumption {
  allowed: boolean;
  remaining: number;
  resetSeconds: number;
}

/** Counts one request against `bucket` in the current fixed window and reports whether it is within `limit`. */
export async function consume(db: Executor, bucket: string, window: Window, now: Date): Promise<Consumption> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % window.seconds);
  const count = await addToCounter(db, bucket, windowStart, 1);
  return {
    allowed: count <= window.limit,
    remaining: Math.max(0, window.limit - count),
    resetSeconds: windowStart + window.seconds - nowSeconds,
  };
}

/** IETF httpapi rate-limit headers (structured-field form). */
export function setRateLimitHeaders(ctx: Context, window: Window, usage: Consumption): void {
  ctx.set('RateLimit-Policy', `"${window.policy}";q=${window.limit};w=${window.seconds}`);
  ctx.set('RateLimit', `"${window.policy}";r=${usage.remaining};t=${usage.resetSeconds}`);
}

/** Applies a window to `bucket`: sets the headers, and throws the spec's 429 `throttled` when over. */
export async function enforce(ctx: Context, db: Executor, bucket: string, window: Window, now: Date): Promise<void> {
  const usage = await consume(db, bucket, window, now);
  setRateLimitHeaders(ctx, window, usage);
  if (!usage.allowed) throw throttled(usage.resetSeconds);
}

/**
 * Counts one request against each bucket in the same window (an anonymous endpoint's budget per client address
 * and per e-mail address, say); the headers show the bucket closest to its limit, and any bucket over its
 * limit refuses the request with the spec's 429.
 */
export async function enforceEach(ctx: Context, db: Executor, buckets: string[], window: Window, now: Date): Promise<void> {
  let tightest: Consumption | null = null;
  for (const bucket of buckets) {
    const usage = await consume(db, bucket, window, now);
    if (!tightest || usage.remaining < tightest.remaining || !usage.allowed) tightest = usage;
  }
  if (!tightest) return;
  setRateLimitHeaders(ctx, window, tightest);
  if (!tightest.allowed) throw throttled(tightest.resetSeconds);
}

/** The `authentication` budget (CONTRACT §5) of the anonymous sign-in endpoints: per hour, as configured. */
export const authenticationWindow = (deps: Pick<Deps, 'config'>): Window => ({ policy: 'authentication', limit: deps.config.hourlyBudgets.authentication, seconds: 3600 });

/** Drops counters of windows that ended before `before` (run by the hourly maintenance job). */
export async function pruneCounters(db: Executor, before: Date): Promise<number> {
  return db('rate_limit_counters').where('window_start', '<', Math.floor(before.getTime() / 1000) - 86_400).delete();
}

/**
 * The hourly budget of a named scope (CONTRACT §5), per credential. Every authenticated route declares its
 * scope with this middleware, after authenticate(). Counted through the write-behind RateCounters (the hot
 * path); `enforce` above counts straight in the database, for small caps where every request must be exact.
 */
export function makeRateLimit(deps: Deps) {
  return function rateLimit(scope: RateLimitScope) {
    // Not async: the counter answers synchronously on every request but a window's first.
    return function hourlyBudget(ctx: Context, next: Next): Promise<void> {
      const actor = actorOf(ctx);
      const multiplier = actor.organization.plan === 'enterprise' ? deps.config.enterpriseMultiplier : 1;
      const window = { policy: scope, limit: deps.config.hourlyBudgets[scope] * multiplier, seconds: 3600 };
      const nowSeconds = Math.floor(deps.clock.now().getTime() / 1000);
      const windowStart = nowSeconds - (nowSeconds % window.seconds);
      const apply = (count: number): Promise<void> => {
        const usage = { allowed: count <= window.limit, remaining: Math.max(0, window.limit - count), resetSeconds: windowStart + window.seconds - nowSeconds };
        setRateLimitHeaders(ctx, window, usage);
        if (!usage.allowed) throw throttled(usage.resetSeconds);
        return next();
      };
      const count = deps.rateCounters.hit(`${scope}:${actor.credential.uuid}`, windowStart, window.seconds);
      // A throw from apply() (429) reaches the error handler either way: koa-compose turns it into a rejection.
      return typeof count === 'number' ? apply(count) : count.then(apply);
    };
  };
}

export type RateLimit = ReturnType<typeof makeRateLimit>;
