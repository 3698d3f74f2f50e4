import type { Context, Next } from 'koa';
import type { CredentialKind } from '../auth/credentials.ts';
import type { Budgets } from '../db/counters.ts';
import { actorOf } from './auth.ts';
import type { Deps } from './deps.ts';
import type { Executor } from '../db/connection.ts';
import type { Logger } from '../lib/logger.ts';
import { ApiError } from '../lib/errors.ts';

/**
 * Free-plan daily caps (spec Limits, CONTRACT §5): 20 send-email and 50 agent-reports per organization per
 * UTC day. They are budgets like the hourly ones (db/counters.ts: exact across processes, never forgotten on a
 * crash) with a window of 86,400 seconds, which is the UTC day: the cap rolls over at 00:00 UTC by itself, and
 * the 00:00 UTC job (`closeFinishedDays`) clears the finished day's counters and logs the reset.
 */
export const DAY_SECONDS = 86_400;
const BUCKET_PREFIX = 'free-daily:';

export interface DailyUsage {
  allowed: boolean;
  count: number;
  limit: number;
  /** Seconds to the next 00:00 UTC. */
  resetSeconds: number;
}

/**
 * Throws the spec's 429 `free_plan_daily_limit_exceeded` (Retry-After: seconds to 00:00 UTC) when the
 * organization's daily cap for `what` is used up.
 * Example (agent reports): `await enforceFreePlanDailyCap(ctx, deps.budgets, {organizationUuid, what: 'agent-reports', limit: 50})`.
 */
export async function enforceFreePlanDailyCap(ctx: Context | null, budgets: Budgets, params: { organizationUuid: string; what: string; limit: number }): Promise<DailyUsage> {
  const taken = await budgets.take(`${BUCKET_PREFIX}${params.what}:${params.organizationUuid}`, params.limit, DAY_SECONDS);
  const usage = { allowed: taken.allowed, count: taken.used, limit: params.limit, resetSeconds: taken.resetSeconds };
  ctx?.set('X-Daily-Limit', String(params.limit));
  ctx?.set('X-Daily-Remaining', String(params.limit - usage.count));
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
export function makeFreePlanDailyCap(deps: Pick<Deps, 'budgets'>) {
  return function freePlanDailyCap(what: string, limit: number, options: { credential?: CredentialKind } = {}) {
    return async function dailyCap(ctx: Context, next: Next): Promise<void> {
      const actor = actorOf(ctx);
      if (actor.organization.plan === 'free' && (options.credential === undefined || actor.credential.kind === options.credential)) {
        await enforceFreePlanDailyCap(ctx, deps.budgets, { organizationUuid: actor.organization.uuid, what, limit });
      }
      await next();
    };
  };
}

/** The 00:00 UTC job: clears the daily caps of finished days and logs what they came to. */
export async function closeFinishedDays(db: Executor, logger: Logger, now: Date): Promise<number> {
  const todayStart = Math.floor(now.getTime() / 1000 / DAY_SECONDS) * DAY_SECONDS;
  const finished = db('rate_limit_counters').where('bucket', 'like', `${BUCKET_PREFIX}%`).andWhere('window_start', '<', todayStart);
  const rows: { window_start: number | string }[] = await finished.clone().select('window_start');
  const today = new Date(todayStart * 1000).toISOString().slice(0, 10);
  if (rows.length === 0) {
    logger.info({ day: today }, 'daily caps reset');
    return 0;
  }
  await finished.clone().delete();
  const days = [...new Set(rows.map((r) => new Date(Number(r.window_start) * 1000).toISOString().slice(0, 10)))];
  logger.info({ day: today, closed: rows.length, days }, 'daily caps reset');
  return rows.length;
}
