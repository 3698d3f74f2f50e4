import { afterAll, describe, expect, it } from 'vitest';
import { createDb, isSqlite } from './connection.ts';

describe('the SQLite connection', () => {
  const db = createDb(':memory:');
  afterAll(() => db.destroy());

  it('writes LIMIT as a number (a bound LIMIT makes SQLite prepare the statement again on every run) and binds OFFSET', () => {
    expect(db('users').where({ uuid: 'u' }).first().toSQL().sql).toBe('select * from `users` where `uuid` = (select ?) limit 1');
    const page = db('users').limit(25).offset(50).toSQL();
    expect(page.sql).toBe('select * from `users` limit 25 offset ?');
    expect(page.bindings).toEqual([50]);
  });

  it("compares a read's equalities with (select ?), so a plan never depends on a bound value; writes are left as they are", async () => {
    const read = db('things').where('board', 'b').andWhere('n', 3).whereNot('kind', 'x').orderBy('n').limit(5).toSQL();
    expect(read.sql).toBe('select * from `things` where `board` = (select ?) and `n` = (select ?) and not `kind` = (select ?) order by `n` asc limit 5');
    expect(read.bindings).toEqual(['b', 3, 'x']);
    expect(db('things').where('n', '>', 3).toSQL().sql).toBe('select * from `things` where `n` > ?');
    expect(db('things').where({ board: 'b' }).update({ n: 1 }).toSQL().sql).toBe('update `things` set `n` = ? where `board` = ?');
    expect(db('things').where({ board: 'b' }).del().toSQL().sql).toBe('delete from `things` where `board` = ?');

    // The same rows as a bound value, whatever the column's affinity.
    await db.schema.createTable('things', (t) => {
      t.string('board');
      t.integer('n');
      t.string('kind');
      t.index(['board', 'n']);
    });
    await db('things').insert([{ board: 'b', n: 3, kind: 'y' }, { board: 'b', n: 4, kind: 'x' }, { board: '3', n: 5, kind: 'y' }]);
    for (const [column, value] of [['n', '3'], ['n', 3], ['board', 3], ['board', '3'], ['board', 'b']] as const) {
      const asBound = await db.raw(`select n from things where ${column} = ? order by n`, [value]);
      expect(await db('things').where(column, value).orderBy('n').select('n')).toEqual(asBound);
    }
    expect(await db('things').where('n', '3').select('n')).toEqual([{ n: 3 }]);
    expect(await db('things').where('board', 'b').whereNot('kind', 'x').count({ count: '*' })).toEqual([{ count: 1 }]);
    const plan = await db.raw("explain query plan select * from things where board = (select ?) order by n limit 1", ['b']);
    expect(plan.map((row: { detail: string }) => row.detail)).toContain('SEARCH things USING INDEX things_board_n_index (board=?)');
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
