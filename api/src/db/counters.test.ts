import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from './connection.ts';
import type { Db } from './connection.ts';
import { migrateLatest } from './migrate.ts';
import { Budgets, leaseSize } from './counters.ts';
import { ManualClock } from '../lib/clock.ts';
import { createLogger } from '../lib/logger.ts';
import { testDatabase } from '../../test/database.ts';

/**
 * Budgets shared by several processes: each "process" here is a Budgets instance on its own connection pool to
 * one database, as separate `rollcall serve` processes are (test/scale-out.test.ts runs real ones).
 */
describe('Budgets: leased from the database, exact across processes, never forgotten on a crash (CONTRACT §5)', () => {
  const clock = new ManualClock('2026-03-10T15:00:00.000Z');
  const logger = createLogger('silent');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-budgets-'));
  let database: Awaited<ReturnType<typeof testDatabase>>;
  let connections: Db[] = [];
  let run = 0;

  beforeAll(async () => {
    database = await testDatabase(dir);
    connections = [0, 1, 2].map(() => createDb(database.url));
    await migrateLatest(connections[0]);
  });
  afterAll(async () => {
    for (const db of connections) await db.destroy();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stored = async (bucket: string): Promise<number> => Number((await connections[0]('rate_limit_counters').where({ bucket }).first('count'))?.count ?? 0);
  const takeAll = async (budgets: Budgets, bucket: string, limit: number, n: number) =>
    (await Promise.all(Array.from({ length: n }, () => budgets.take(bucket, limit, 3600)))).filter((t) => t.allowed).length;

  it('grants exactly the limit to concurrent requests spread over three processes, and stores each grant before answering', async () => {
    const bucket = `reads:spread-${run++}`;
    const processes = connections.map((db) => new Budgets(db, clock, logger));
    const granted = await Promise.all(processes.map((budgets) => takeAll(budgets, bucket, 100, 100)));
    expect(granted.reduce((a, b) => a + b, 0)).toBe(100);
    expect(await stored(bucket)).toBeGreaterThanOrEqual(100);
    for (const budgets of processes) expect(await budgets.take(bucket, 100, 3600)).toEqual({ allowed: false, used: 100, limit: 100, resetSeconds: 3600 });
    await Promise.all(processes.map((budgets) => budgets.close()));
  });

  it('never grants more than the limit, whatever the interleaving, and loses at most what a crashed process held', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 80 }),
        fc.array(fc.record({ process: fc.integer({ min: 0, max: 2 }), burst: fc.integer({ min: 1, max: 12 }) }), { minLength: 1, maxLength: 12 }),
        fc.option(fc.record({ process: fc.integer({ min: 0, max: 2 }), after: fc.integer({ min: 0, max: 11 }) }), { nil: null }),
        async (limit, bursts, crash) => {
          const bucket = `reads:property-${run++}`;
          const processes: (Budgets | null)[] = connections.map((db) => new Budgets(db, clock, logger));
          let granted = 0;
          for (const [i, { process, burst }] of bursts.entries()) {
            const budgets = processes[process];
            if (budgets) granted += await takeAll(budgets, bucket, limit, burst);
            // What was granted is stored, whatever happens next.
            expect(granted).toBeLessThanOrEqual(limit);
            expect(await stored(bucket)).toBeGreaterThanOrEqual(granted);
            if (crash && crash.after === i) processes[crash.process] = null; // gone without close(): its units are lost
          }
          // The survivors drain the window.
          for (const budgets of processes) if (budgets) granted += await takeAll(budgets, bucket, limit, limit + 1);
          expect(granted).toBeLessThanOrEqual(limit);
          // Without a crash nothing is lost; a crash loses at most the lease it held (and one fetched ahead).
          expect(limit - granted).toBeLessThanOrEqual(crash ? 2 * leaseSize(limit, 0) : 0);
          await Promise.all(processes.map((budgets) => budgets?.close()));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('hands unused units back on a clean stop, and starts a new window afresh', async () => {
    const bucket = `writes:close-${run++}`;
    const first = new Budgets(connections[0], clock, logger);
    expect(await first.take(bucket, 1000, 3600)).toEqual({ allowed: true, used: 1, limit: 1000, resetSeconds: 3600 });
    expect(await stored(bucket)).toBe(leaseSize(1000, 0));
    await first.close();
    expect(await stored(bucket)).toBe(1);
    const second = new Budgets(connections[1], clock, logger);
    expect(await takeAll(second, bucket, 1000, 1000)).toBe(999);
    clock.advance(3600_000);
    expect(await second.take(bucket, 1000, 3600)).toEqual({ allowed: true, used: 1, limit: 1000, resetSeconds: 3600 });
    await second.close();
  });

  it('answers synchronously while it holds units (no promise on the hot path)', async () => {
    const bucket = `reads:sync-${run++}`;
    const budgets = new Budgets(connections[0], clock, logger);
    await budgets.take(bucket, 5000, 3600);
    const next = budgets.take(bucket, 5000, 3600);
    expect(next).not.toBeInstanceOf(Promise);
    expect(next).toEqual({ allowed: true, used: 2, limit: 5000, resetSeconds: 3600 });
    await budgets.close();
  });
});
