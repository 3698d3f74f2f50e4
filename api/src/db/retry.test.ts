import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/database.ts';
import { TRANSACTION_ATTEMPTS, withRetries } from './retry.ts';

describe('a transaction that lost a race runs again (db/retry.ts)', () => {
  it('retries deadlocks, serialization failures and unique violations a bounded number of times, nothing else', async () => {
    for (const code of ['40P01', '40001', '23505']) {
      let runs = 0;
      const answer = await withRetries(async () => {
        if (++runs < 3) throw Object.assign(new Error(code), { code });
        return 'done';
      });
      expect([code, answer, runs]).toEqual([code, 'done', 3]);
      let forever = 0;
      await expect(withRetries(() => Promise.reject(Object.assign(new Error(code), { code, n: ++forever })))).rejects.toMatchObject({ code });
      expect(forever).toBe(TRANSACTION_ATTEMPTS);
    }
    let once = 0;
    await expect(withRetries(() => Promise.reject(Object.assign(new Error('refused'), { code: '23503', n: ++once })))).rejects.toThrow('refused');
    expect(once).toBe(1);
  });

  it.runIf(process.env.ROLLCALL_TEST_ENGINE === 'postgres')('PostgreSQL: of two transactions that deadlock, the one the server fails runs again and both commit', async () => {
    const { db, close } = await openTestDatabase();
    try {
      await db.schema.createTable('retry_probe', (t) => {
        t.integer('id').primary();
        t.integer('v').notNullable();
      });
      await db('retry_probe').insert([{ id: 1, v: 0 }, { id: 2, v: 0 }]);
      let runs = 0;
      let bothHoldOne!: () => void;
      const met = new Promise<void>((resolve) => void (bothHoldOne = resolve));
      let holding = 0;
      const crossing = (first: number, second: number) =>
        db.transaction(async (trx) => {
          runs++;
          await trx('retry_probe').where({ id: first }).increment('v', 1);
          if (++holding === 2) bothHoldOne();
          await met;
          await trx('retry_probe').where({ id: second }).increment('v', 1);
        });
      await Promise.all([crossing(1, 2), crossing(2, 1)]);
      expect(runs).toBe(3);
      expect(await db('retry_probe').orderBy('id').select('id', 'v')).toEqual([{ id: 1, v: 2 }, { id: 2, v: 2 }]);
    } finally {
      await close();
    }
  });
});
