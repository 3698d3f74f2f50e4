import cron from 'node-cron';
import { features } from '../features/index.ts';
import type { Deps } from '../http/deps.ts';
import type { Job } from '../http/feature.ts';
import { closeFinishedDays } from '../http/daily-cap.ts';
import { optimizeDatabase } from '../db/maintenance.ts';
import { pruneCounters } from '../http/rate-limit.ts';
import { startInboundSmtp } from '../inbound/smtp-listener.ts';
import type { InboundSmtp } from '../inbound/smtp-listener.ts';

/** Background jobs of one server process: the core ones below and every feature's. Each is a plain function, callable from a test. */
export async function pruneRateLimitCounters(deps: Deps): Promise<number> {
  return pruneCounters(deps.db, deps.clock.now());
}

/** 00:00 UTC: the free-plan daily caps roll over; clear the finished day and log the reset (CONTRACT §5). */
export async function closeDailyCaps(deps: Deps): Promise<number> {
  return closeFinishedDays(deps.db, deps.logger, deps.clock.now());
}

/** Hourly: table statistics for SQLite's query planner, where tables changed enough (db/maintenance.ts). */
export async function optimizeSqlite(deps: Deps): Promise<void> {
  await optimizeDatabase(deps.db);
}

const CORE_JOBS: Job[] = [
  { name: 'prune-rate-limit-counters', schedule: '7 * * * *', run: pruneRateLimitCounters },
  { name: 'close-daily-caps', schedule: '0 0 * * *', run: closeDailyCaps },
  { name: 'optimize-database', schedule: '47 * * * *', run: optimizeSqlite },
];

export function startJobs(deps: Deps) {
  const running = new Set<Promise<unknown>>();
  const run = (name: string, job: () => Promise<unknown>) => {
    const task = job()
      .catch((err) => deps.logger.error({ err, job: name }, 'job failed'))
      .finally(() => running.delete(task));
    running.add(task);
  };
  const jobs = [...CORE_JOBS, ...features.flatMap((feature) => feature.jobs ?? [])];
  const tasks = jobs.map((job) => cron.schedule(job.schedule, () => run(job.name, () => job.run(deps)), { timezone: 'UTC' }));
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
