import cron from 'node-cron';
import type { ScheduledTask } from 'node-cron';
import { features } from '../features/index.ts';
import type { Deps } from '../http/deps.ts';
import type { Job } from '../http/feature.ts';
import { closeFinishedDays } from '../http/daily-cap.ts';
import { optimizeDatabase } from '../db/maintenance.ts';
import { pruneCounters } from '../db/counters.ts';
import { startInboundSmtp } from '../inbound/smtp-listener.ts';
import type { InboundSmtp } from '../inbound/smtp-listener.ts';
import { instanceId } from '../lib/ids.ts';
import { firingCoordinator, firingKey, pruneFirings, recordFiringError } from './firings.ts';

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
  { name: 'prune-job-firings', schedule: '37 * * * *', run: (deps) => pruneFirings(deps.db, deps.clock.now()) },
  { name: 'optimize-database', schedule: '47 * * * *', run: optimizeSqlite },
];

/** Every scheduled job: the core ones and each feature's (`Feature.jobs`). */
export const allJobs = (): Job[] => [...CORE_JOBS, ...features.flatMap((feature) => feature.jobs ?? [])];

/** Runs one firing of `job` here (the caller has claimed it): errors are logged and recorded, never thrown at node-cron. */
async function runFiring(deps: Deps, job: Job, slot: Date): Promise<void> {
  const started = performance.now();
  try {
    await job.run(deps);
    deps.logger.debug({ job: job.name, fired_at: slot.toISOString(), ms: Math.round(performance.now() - started) }, 'job ran');
  } catch (err) {
    deps.logger.error({ err, job: job.name, fired_at: slot.toISOString() }, 'job failed');
    await recordFiringError(deps.db, job.name, slot, err instanceof Error ? err.message : String(err)).catch(() => {});
  }
}

/**
 * One firing of `job` for the scheduled instant `slot`, through the same claim as the scheduler's: true when
 * this call ran it, false when another process (or an earlier call) had claimed that firing. Tests use it to
 * fire jobs with an injected clock.
 */
export async function fireJob(deps: Deps, job: Job, slot: Date, owner = instanceId()): Promise<boolean> {
  const coordinator = firingCoordinator(deps.db, owner, deps.clock);
  const key = firingKey(job.name, slot);
  if (!(await coordinator.shouldRun(key, 0))) return false;
  try {
    await runFiring(deps, job, slot);
  } finally {
    await coordinator.onComplete?.(key);
  }
  return true;
}

/**
 * Schedules every job with node-cron (UTC). This is the only place jobs are scheduled **(checked)**: a feature
 * declares `jobs: [{name, schedule, run}]` in its feature.ts and gets, by construction, one run per firing
 * across every process on the database (node-cron's `distributed` run coordinator, claimed in `job_firings`:
 * jobs/firings.ts). A job's name must be unique and contain no colon.
 */
export function scheduleJobs(deps: Deps, jobs: Job[] = allJobs()): { tasks: ScheduledTask[]; idle: () => Promise<void> } {
  const names = new Set<string>();
  for (const job of jobs) {
    if (names.has(job.name) || job.name.includes(':')) throw new Error(`job name "${job.name}" must be unique and contain no colon`);
    if (!cron.validate(job.schedule)) throw new Error(`job "${job.name}": invalid schedule "${job.schedule}"`);
    names.add(job.name);
  }
  const runCoordinator = firingCoordinator(deps.db, instanceId(), deps.clock);
  const running = new Set<Promise<void>>();
  const tasks = jobs.map((job) => {
    const task = cron.schedule(job.schedule, (context) => {
      const run = runFiring(deps, job, context.date).finally(() => running.delete(run));
      running.add(run);
      return run;
    }, {
      name: job.name,
      timezone: 'UTC',
      distributed: true,
      runCoordinator,
      // A firing whose predecessor still runs here is not started on top of it (another process may take it).
      noOverlap: true,
      unref: true,
      logger: cronLogger(deps),
    });
    task.on('execution:skipped', (context) => deps.logger.debug({ job: job.name, fired_at: context.date.toISOString(), reason: context.reason }, 'job firing skipped'));
    return task;
  });
  return { tasks, idle: async () => void (await Promise.allSettled([...running])) };
}

/** node-cron's own messages (a coordinator that could not reach the database, a missed tick) through our logger. */
function cronLogger(deps: Deps) {
  return {
    info: (message: string) => deps.logger.info({ source: 'node-cron' }, message),
    warn: (message: string) => deps.logger.warn({ source: 'node-cron' }, message),
    error: (message: string | Error, err?: Error) => deps.logger.error({ source: 'node-cron', err: err ?? message }, String(message)),
    debug: (message: string | Error) => deps.logger.debug({ source: 'node-cron' }, String(message)),
  };
}

/**
 * The background work of one server process, by its role (ROLE): `worker` and `all` run the scheduled jobs,
 * the delivery worker pool and the inbound SMTP listener; `api` runs none of them (its deliveries are sent by
 * the worker processes, woken through db/notifications.ts).
 */
export function startJobs(deps: Deps) {
  const background = deps.config.role !== 'api';
  const scheduled = background ? scheduleJobs(deps) : { tasks: [], idle: async () => {} };
  // The delivery worker pool: resumes every pending row now, then polls (and is kicked after commits).
  if (background) deps.delivery.start();
  let inbound: Promise<InboundSmtp | null> = Promise.resolve(null);
  if (background && deps.config.inboundSmtpPort !== null) {
    inbound = startInboundSmtp({ port: deps.config.inboundSmtpPort, domain: deps.config.inboundEmailDomain, routes: deps.inboundRoutes, logger: deps.logger }).catch((err) => {
      deps.logger.error({ err, job: 'inbound-smtp' }, 'job failed');
      return null;
    });
  }
  return {
    stop(): void {
      for (const task of scheduled.tasks) void task.destroy();
      deps.delivery.stop();
    },
    async idle(): Promise<void> {
      await scheduled.idle();
      await (await inbound)?.close();
    },
  };
}
