import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from './connection.ts';
import type { Db } from './connection.ts';
import { GroupCommit } from './group-commit.ts';
import { openTestDatabase } from '../../test/database.ts';

const onPostgres = process.env.ROLLCALL_TEST_ENGINE === 'postgres';

describe.skipIf(onPostgres)('group commit (SQLite)', () => {
  const db = createDb(':memory:');
  const statements: string[] = [];
  beforeAll(async () => {
    await db.schema.createTable('notes', (t) => {
      t.string('text').primary();
    });
    db.on('query', (q: { sql: string }) => statements.push(q.sql));
  });
  afterAll(() => db.destroy());

  it('runs the writes requested in one turn of the event loop together, one commit for the batch', async () => {
    const writes = new GroupCommit(db);
    statements.length = 0;
    const results = await Promise.all(
      ['a', 'b', 'c', 'd'].map((text) => writes.run(async (trx) => {
        await trx('notes').insert({ text });
        return text.toUpperCase();
      })),
    );
    expect(results).toEqual(['A', 'B', 'C', 'D']);
    expect(statements.filter((sql) => /^COMMIT/i.test(sql))).toHaveLength(1);
    expect((await db('notes').orderBy('text')).map((r) => r.text)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a failing write fails alone: the batch is rolled back and the others run again, each exactly once', async () => {
    const writes = new GroupCommit(db);
    await db('notes').delete();
    const runs: Record<string, number> = {};
    const write = (text: string) =>
      writes.run(async (trx) => {
        runs[text] = (runs[text] ?? 0) + 1;
        await trx('notes').insert({ text });
        if (text === 'bad') throw new Error('refused');
        return text;
      });
    const settled = await Promise.allSettled([write('first'), write('x'), write('bad'), write('y')]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((settled[2] as PromiseRejectedResult).reason.message).toBe('refused');
    expect((await db('notes').orderBy('text')).map((r) => r.text)).toEqual(['first', 'x', 'y']);
    // first and x ran in the rolled-back batch (which stopped at bad), then again on their own; y only alone.
    // Each row exists once.
    expect(runs).toEqual({ first: 2, x: 2, bad: 2, y: 1 });
  });
});

describe.runIf(onPostgres)('group commit on PostgreSQL: each write in its own transaction, at once', () => {
  let db: Db;
  let close: () => Promise<void>;
  const statements: string[] = [];
  beforeAll(async () => {
    ({ db, close } = await openTestDatabase());
    await db.schema.createTable('notes', (t) => {
      t.string('text').primary();
    });
    db.on('query', (q: { sql: string }) => statements.push(q.sql));
  });
  afterAll(() => close());

  it('commits every write on its own; a failing write fails alone and the others are kept once', async () => {
    const writes = new GroupCommit(db);
    statements.length = 0;
    const write = (text: string) =>
      writes.run(async (trx) => {
        await trx('notes').insert({ text });
        if (text === 'bad') throw new Error('refused');
        return text.toUpperCase();
      });
    const settled = await Promise.allSettled([write('a'), write('bad'), write('b'), write('c')]);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : s.reason.message))).toEqual(['A', 'refused', 'B', 'C']);
    expect(statements.filter((sql) => /^COMMIT/i.test(sql))).toHaveLength(3);
    expect(statements.filter((sql) => /^ROLLBACK/i.test(sql))).toHaveLength(1);
    expect((await db('notes').orderBy('text')).map((r) => r.text)).toEqual(['a', 'b', 'c']);
  });
});
