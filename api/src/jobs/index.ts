import cron from 'node-cron';
import type { Deps } from '../deps.ts';
import { pruneCounters } from '../http/rate-limit.ts';

/** Background jobs of one server process. Each job is a plain function, callable directly from a test. */
export async function pruneRateLimitCounters(deps: Deps): Promise<number> {
  return pruneCounters(deps.db, deps.clock.now());
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
  ];
  return {
    stop(): void {
      for (const task of tasks) task.stop();
    },
    async idle(): Promise<void> {
      await Promise.allSettled([...running]);
    },
  };
}
