import type { Context, Next } from 'koa';
import type { CredentialKind } from '../auth/credentials.ts';
import { actorOf } from './auth.ts';
import type { Deps } from './deps.ts';
import type { Executor } from '../db/connection.ts';
import type { Logger } from '../lib/logger.ts';
import { ApiError } from '../lib/errors.ts';
import { secondsToUtcMidnight } from '../lib/time.ts';

/**
 * Free-plan daily caps (spec Limits, CONTRACT §5): 20 send-email and 50 agent-reports per organization per
 * UTC day. The window is the UTC day, so the cap rolls over at 00:00 UTC by itself; the 00:00 UTC job
 * (`closeFinishedDays`) clears the finished day's counters and logs the reset.
 */
export const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

export interface DailyUsage {
  allowed: boolean;
  count: number;
  limit: number;
  /** Seconds to the next 00:00 UTC. */
  resetSeconds: number;
}

/** Counts one use of `bucket` today (one portable upsert) and says whether it is within `limit`. */
export async function consumeDaily(db: Executor, bucket: string, limit: number, now: Date): Promise<DailyUsage> {
  const [row] = await db('daily_caps')
    .insert({ bucket, day: utcDay(now), count: 1 })
    .onConflict(['bucket', 'day'])
    .merge({ count: db.raw('?? + 1', ['daily_caps.count']) })
    .returning(['count']);
  const count = Number(row.count);
  return { allowed: count <= limit, count, limit, resetSeconds: secondsToUtcMidnight(now) };
}

/** Today's count without using one. */
export async function dailyCount(db: Executor, bucket: string, now: Date): Promise<number> {
  const row = await db('daily_caps').where({ bucket, day: utcDay(now) }).first('count');
  return row ? Number(row.count) : 0;
}

/**
 * Throws the spec's 429 `free_plan_daily_limit_exceeded` (Retry-After: seconds to 00:00 UTC) when the
 * organization's daily cap for `what` is used up; only a refusal leaves the counter past the limit.
 * Example (agent reports): `await enforceFreePlanDailyCap(ctx, deps.db, {organizationUuid, what: 'agent-reports', limit: 50}, now)`.
 */
export async function enforceFreePlanDailyCap(
  ctx: Context | null,
  db: Executor,
  params: { organizationUuid: string; what: string; limit: number },
  now: Date,
): Promise<DailyUsage> {
  const usage = await consumeDaily(db, `free-daily:${params.what}:${params.organizationUuid}`, params.limit, now);
  ctx?.set('X-Daily-Limit', String(params.limit));
  ctx?.set('X-Daily-Remaining', String(Math.max(0, params.limit - usage.count)));
  if (!usage.allowed) {
    throw new ApiError(
      429,
      'free_plan_daily_limit_exceeded',
      `The free plan allows ${params.limit} ${params.what} per organization per day. The limit resets at 00:00 UTC, in ${usage.resetSeconds} seconds.`,
      { extra: { limit: params.limit, retry_after: usage.resetSeconds }, headers: { 'Retry-After': String(usage.resetSeconds) } },
    );
  }
  return usage;
}

/**
 * Route middleware for a free-plan daily cap (after authenticate()): counts the call against the organization's
 * cap for `what` when the organization is on the free plan (and, with `credential`, only for that kind of
 * credential), and refuses it with the spec's 429 once the day's cap is used up.
 */
export function makeFreePlanDailyCap(deps: Pick<Deps, 'db' | 'clock'>) {
  return function freePlanDailyCap(what: string, limit: number, options: { credential?: CredentialKind } = {}) {
    return async function dailyCap(ctx: Context, next: Next): Promise<void> {
      const actor = actorOf(ctx);
      if (actor.organization.plan === 'free' && (options.credential === undefined || actor.credential.kind === options.credential)) {
        await enforceFreePlanDailyCap(ctx, deps.db, { organizationUuid: actor.organization.uuid, what, limit }, deps.clock.now());
      }
      await next();
    };
  };
}

/** The 00:00 UTC job: clears every counter of finished days and logs what each day came to. */
export async function closeFinishedDays(db: Executor, logger: Logger, now: Date): Promise<number> {
  const today = utcDay(now);
  const finished = await db('daily_caps').where('day', '<', today).select('bucket', 'day', 'count');
  if (finished.length === 0) {
    logger.info({ day: today }, 'daily caps reset');
    return 0;
  }
  await db('daily_caps').where('day', '<', today).delete();
  logger.info({ day: today, closed: finished.length, days: [...new Set(finished.map((r) => r.day))] }, 'daily caps reset');
  return finished.length;
}
