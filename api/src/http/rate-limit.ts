import type { Context, Next } from 'koa';
import type { Executor } from '../db/connection.ts';
import { addToCounter } from '../db/counters.ts';
import type { Take } from '../db/counters.ts';
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

/**
 * Counts one request against `bucket` in the current fixed window, straight in the database (one atomic upsert
 * per request, before the answer), and reports whether it is within `limit`. For small budgets checked before a
 * credential exists (registration and invitation tokens per client address); budgets of authenticated requests
 * go through `deps.budgets` (db/counters.ts), which leases units instead of writing per request.
 */
export async function consume(db: Executor, bucket: string, window: Window, now: Date): Promise<Take> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % window.seconds);
  const count = await addToCounter(db, bucket, windowStart, 1);
  return { allowed: count <= window.limit, used: Math.min(count, window.limit), limit: window.limit, resetSeconds: windowStart + window.seconds - nowSeconds };
}

/** The RateLimit-Policy header of a window: the same for every request counted in it. */
const policyHeader = (window: Window): string => `"${window.policy}";q=${window.limit};w=${window.seconds}`;

/**
 * IETF httpapi rate-limit headers (structured-field form), written straight onto the response (Koa's ctx.set
 * would only check and convert what is already a string). `policy` is the window's RateLimit-Policy, when the
 * caller keeps it.
 */
export function setRateLimitHeaders(ctx: Context, window: Window, usage: Take, policy = policyHeader(window)): void {
  ctx.res.setHeader('RateLimit-Policy', policy);
  ctx.res.setHeader('RateLimit', `"${window.policy}";r=${window.limit - usage.used};t=${usage.resetSeconds}`);
}

/** Sets the headers of a counted request, and throws the spec's 429 `throttled` when it is over its window. */
export function applyWindow(ctx: Context, window: Window, usage: Take, policy?: string): void {
  setRateLimitHeaders(ctx, window, usage, policy);
  if (!usage.allowed) throw throttled(usage.resetSeconds);
}

/** Applies a window to `bucket` through `consume`: sets the headers, and throws the spec's 429 `throttled` when over. */
export async function enforce(ctx: Context, db: Executor, bucket: string, window: Window, now: Date): Promise<void> {
  applyWindow(ctx, window, await consume(db, bucket, window, now));
}

/**
 * Counts the request against `window` in `deps.budgets` (exact across processes, see db/counters.ts), sets the
 * RateLimit headers and answers 429 `throttled` when the window is used up. Synchronous (no promise) while this
 * process holds units of the budget, which is nearly always.
 */
export function takeFromBudget(deps: Pick<Deps, 'budgets'>, ctx: Context, bucket: string, window: Window, policy?: string): void | Promise<void> {
  const usage = deps.budgets.take(bucket, window.limit, window.seconds);
  return usage instanceof Promise ? usage.then((taken) => applyWindow(ctx, window, taken, policy)) : applyWindow(ctx, window, usage, policy);
}

/**
 * Counts one request against each bucket in the same window (an anonymous endpoint's budget per client address
 * and per e-mail address, say), straight in the database like `consume`; the headers show the bucket closest to
 * its limit, and any bucket over its limit refuses the request with the spec's 429.
 */
export async function enforceEach(ctx: Context, db: Executor, buckets: string[], window: Window, now: Date): Promise<void> {
  let tightest: Take | null = null;
  for (const bucket of buckets) {
    const usage = await consume(db, bucket, window, now);
    if (!tightest || usage.used > tightest.used || !usage.allowed) tightest = usage;
  }
  if (tightest) applyWindow(ctx, window, tightest);
}

/** The `authentication` budget (CONTRACT §5) of the anonymous sign-in endpoints: per hour, as configured. */
export const authenticationWindow = (deps: Pick<Deps, 'config'>): Window => ({ policy: 'authentication', limit: deps.config.hourlyBudgets.authentication, seconds: 3600 });

/**
 * The hourly budget of a named scope (CONTRACT §5), per credential. Every authenticated route declares its
 * scope with this middleware, after authenticate().
 */
export function makeRateLimit(deps: Deps) {
  return function rateLimit(scope: RateLimitScope) {
    // The scope's two windows (enterprise plans get the multiplier) and their policy headers, made once.
    const windowOf = (multiplier: number) => {
      const window: Window = { policy: scope, limit: deps.config.hourlyBudgets[scope] * multiplier, seconds: 3600 };
      return { window, policy: policyHeader(window) };
    };
    const standard = windowOf(1);
    const enterprise = windowOf(deps.config.enterpriseMultiplier);
    // Not async: the budget answers synchronously on nearly every request.
    return function hourlyBudget(ctx: Context, next: Next): Promise<void> {
      const actor = actorOf(ctx);
      const { window, policy } = actor.organization.plan === 'enterprise' ? enterprise : standard;
      const taken = takeFromBudget(deps, ctx, `${scope}:${actor.credential.uuid}`, window, policy);
      // A throw (429) reaches the error handler either way: koa-compose turns it into a rejection.
      return taken ? taken.then(next) : next();
    };
  };
}

export type RateLimit = ReturnType<typeof makeRateLimit>;
