import cron from 'node-cron';
import type { Deps } from '../deps.ts';
import { pruneCounters } from '../http/rate-limit.ts';
import { closeFinishedDays } from '../http/daily-cap.ts';
import { pruneDispatchedEvents } from '../features/webhooks/service.ts';
import { startInboundSmtp } from '../features/inbound/smtp-listener.ts';
import type { InboundSmtp } from '../features/inbound/smtp-listener.ts';
import { pruneIdempotencyKeys } from '../features/plan/frame/idempotency.ts';

/** Background jobs of one server process. Each job is a plain function, callable directly from a test. */
export async function pruneRateLimitCounters(deps: Deps): Promise<number> {
  return pruneCounters(deps.db, deps.clock.now());
}

/** Hourly: organization events dispatched more than DISPATCHED_EVENT_RETENTION_DAYS ago. */
export async function pruneOrganizationEvents(deps: Deps): Promise<number> {
  return pruneDispatchedEvents(deps.db, deps.clock.now());
}

/** Hourly: Plan Idempotency-Key answers kept past their 24 hours. */
export async function prunePlanIdempotencyKeys(deps: Deps): Promise<number> {
  return pruneIdempotencyKeys(deps.db, deps.clock.now());
}

/** 00:00 UTC: the free-plan daily caps roll over; clear the finished day and log the reset (CONTRACT §5). */
export async function closeDailyCaps(deps: Deps): Promise<number> {
  return closeFinishedDays(deps.db, deps.logger, deps.clock.now());
}

/** Sends every due delivery once (the worker pool does this continuously once started). */
export async function runDeliveries(deps: Deps): Promise<void> {
  await deps.delivery.runDue();
}

export function startJobs(deps: Deps) {
  const running = new Set<Promise<unknown>>();
  const run = (name: string, job: () => Promise<unknown>) => {
    const task = job()
      .catch((err) => deps.logger.error({ err, job: name }, 'job failed'))
      .finally(() => running.delete(task));
    running.add(task);
  };
  const tasks = [
    cron.schedule('7 * * * *', () => run('prune-rate-limit-counters', () => pruneRateLimitCounters(deps)), { timezone: 'UTC' }),
    cron.schedule('17 * * * *', () => run('prune-organization-events', () => pruneOrganizationEvents(deps)), { timezone: 'UTC' }),
    cron.schedule('27 * * * *', () => run('prune-plan-idempotency-keys', () => prunePlanIdempotencyKeys(deps)), { timezone: 'UTC' }),
    cron.schedule('0 0 * * *', () => run('close-daily-caps', () => closeDailyCaps(deps)), { timezone: 'UTC' }),
  ];
  // The delivery worker pool: resumes every pending row now, then polls (and is kicked after commits).
  deps.delivery.start();
  let inbound: InboundSmtp | null = null;
  if (deps.config.inboundSmtpPort !== null) {
    run('inbound-smtp', async () => {
      inbound = await startInboundSmtp({ port: deps.config.inboundSmtpPort!, domain: deps.config.inboundEmailDomain, routes: deps.inboundRoutes, logger: deps.logger });
    });
  }
  return {
    stop(): void {
      for (const task of tasks) task.stop();
      deps.delivery.stop();
    },
    async idle(): Promise<void> {
      await Promise.allSettled([...running]);
      await (inbound as InboundSmtp | null)?.close();
    },
  };
}
