import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import type { Job } from '../http/feature.ts';
import { fireJob, scheduleJobs } from './index.ts';

describe('Scheduled jobs: each firing runs once across the processes of one database', () => {
  let apps: TestApp[] = [];
  afterEach(async () => {
    // The first app owns the database: the others close first.
    for (const app of apps.reverse()) await app.close();
    apps = [];
  });

  /** Three apps on one database, each with its own connections, as three `rollcall serve` processes are. */
  async function threeProcesses(): Promise<TestApp[]> {
    const first = await startTestApp();
    apps = [first, await startTestApp({}, {}, {}, { sameDatabaseAs: first }), await startTestApp({}, {}, {}, { sameDatabaseAs: first })];
    return apps;
  }

  it('runs a firing claimed by three processes at once exactly once, and the next firing again', async () => {
    const [a, b, c] = await threeProcesses();
    let runs = 0;
    const job: Job = { name: 'count', schedule: '* * * * *', run: async () => void runs++ };
    const slot = new Date('2026-03-10T15:01:00.000Z');
    const fired = await Promise.all([a, b, c, a].map((app) => fireJob(app.deps, job, slot)));
    expect(fired.filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
    expect(await fireJob(b.deps, job, new Date('2026-03-10T15:02:00.000Z'))).toBe(true);
    expect(runs).toBe(2);
    const rows = await a.db('job_firings').where({ job: 'count' }).orderBy('fired_at');
    expect(rows.map((r) => r.fired_at)).toEqual(['2026-03-10T15:01:00.000Z', '2026-03-10T15:02:00.000Z']);
    expect(rows.every((r) => r.finished_at !== null && r.error === null)).toBe(true);
  });

  it('schedules through node-cron: three schedulers, one run per second of a per-second job', async () => {
    const [a, b, c] = await threeProcesses();
    const slots: string[] = [];
    const job: Job = { name: 'every-second', schedule: '* * * * * *', run: async () => void slots.push(new Date(Math.floor(Date.now() / 1000) * 1000).toISOString()) };
    const schedulers = [a, b, c].map((app) => scheduleJobs(app.deps, [job]));
    // node-cron fires on the wall clock: this test waits for three of its seconds.
    await new Promise((resolve) => setTimeout(resolve, 3200));
    for (const scheduler of schedulers) for (const task of scheduler.tasks) await task.destroy();
    await Promise.all(schedulers.map((scheduler) => scheduler.idle()));
    const firings = await a.db('job_firings').where({ job: 'every-second' }).select('fired_at', 'claimed_by');
    expect(firings.length).toBeGreaterThanOrEqual(2);
    expect(slots).toHaveLength(firings.length);
    expect(new Set(firings.map((f) => f.fired_at)).size).toBe(firings.length);
  });

  it('records a failed firing with its error, logged, and refuses a schedule it cannot read', async () => {
    const [a] = await threeProcesses();
    const job: Job = { name: 'broken', schedule: '0 * * * *', run: async () => Promise.reject(new Error('no luck')) };
    expect(await fireJob(a.deps, job, new Date('2026-03-10T16:00:00.000Z'))).toBe(true);
    expect(await a.db('job_firings').where({ job: 'broken' }).first()).toMatchObject({ error: 'no luck', finished_at: expect.any(String) });
    expect(a.logs.some((line) => line.includes('"job":"broken"') && line.includes('job failed'))).toBe(true);
    expect(() => scheduleJobs(a.deps, [{ ...job, schedule: 'every minute' }])).toThrow('job "broken": invalid schedule "every minute"');
    expect(() => scheduleJobs(a.deps, [{ ...job, name: 'a:b' }])).toThrow('must be unique and contain no colon');
  });
});
