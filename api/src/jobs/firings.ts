import type { RunCoordinator } from 'node-cron';
import type { Db } from '../db/connection.ts';
import type { Clock } from '../lib/clock.ts';

/** How long a job's firings are kept (the hourly pruning job deletes older ones). */
const FIRING_RETENTION_MS = 7 * 86_400_000;

/** node-cron's coordination key of a firing: `<job name>:<scheduled instant, ISO 8601>`. */
export const firingKey = (job: string, slot: Date): string => `${job}:${slot.toISOString()}`;

function parseKey(key: string): { job: string; firedAt: string } {
  const colon = key.indexOf(':');
  return { job: key.slice(0, colon), firedAt: key.slice(colon + 1) };
}

/**
 * The run coordinator node-cron asks before every scheduled run of a job (`distributed: true`): the firing is
 * claimed with an insert of (job, scheduled instant) that only one process can land (`on conflict do nothing`),
 * on SQLite and PostgreSQL alike. The process whose insert lands runs the job; the others skip that firing.
 * Nothing is elected and nothing can split: each firing is decided by the primary key. If the claiming
 * process dies mid-run, that firing is not run again: jobs do the work due by now (not "the work of this
 * tick"), so the next firing makes it up.
 */
export function firingCoordinator(db: Db, owner: string, clock: Clock): RunCoordinator {
  return {
    async shouldRun(key: string): Promise<boolean> {
      const { job, firedAt } = parseKey(key);
      const claimed = await db('job_firings')
        .insert({ job, fired_at: firedAt, claimed_by: owner, started_at: clock.now().toISOString(), finished_at: null, error: null })
        .onConflict(['job', 'fired_at'])
        .ignore()
        .returning(['job']);
      return claimed.length > 0;
    },
    async onComplete(key: string): Promise<void> {
      const { job, firedAt } = parseKey(key);
      await db('job_firings').where({ job, fired_at: firedAt, claimed_by: owner }).update({ finished_at: clock.now().toISOString() });
    },
  };
}

/** Records why a firing failed (shown to operators in the table; the log has the stack). */
export async function recordFiringError(db: Db, job: string, slot: Date, error: string): Promise<void> {
  await db('job_firings').where({ job, fired_at: slot.toISOString() }).update({ error: error.slice(0, 2000) });
}

/** Deletes firings older than a week. */
export async function pruneFirings(db: Db, now: Date): Promise<number> {
  return db('job_firings').where('fired_at', '<', new Date(now.getTime() - FIRING_RETENTION_MS).toISOString()).delete();
}
