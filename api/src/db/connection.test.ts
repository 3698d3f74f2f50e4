import { afterAll, describe, expect, it } from 'vitest';
import { createDb, isSqlite } from './connection.ts';

describe('the SQLite connection', () => {
  const db = createDb(':memory:');
  afterAll(() => db.destroy());

  it('writes LIMIT as a number (a bound LIMIT makes SQLite prepare the statement again on every run) and binds OFFSET', () => {
    expect(db('users').where({ uuid: 'u' }).first().toSQL().sql).toBe('select * from `users` where `uuid` = ? limit 1');
    const page = db('users').limit(25).offset(50).toSQL();
    expect(page.sql).toBe('select * from `users` limit 25 offset ?');
    expect(page.bindings).toEqual([50]);
  });

  it('still runs queries, with the limit applied', async () => {
    const rows = await db.raw('select 1 as n union all select 2 union all select 3');
    expect(rows).toHaveLength(3);
    await db.schema.createTable('numbers', (t) => t.integer('n'));
    await db('numbers').insert([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(await db('numbers').orderBy('n').limit(2).offset(1)).toEqual([{ n: 2 }, { n: 3 }]);
    expect(await db('numbers').orderBy('n', 'desc').first()).toEqual({ n: 3 });
    expect(isSqlite(db)).toBe(true);
  });
});
