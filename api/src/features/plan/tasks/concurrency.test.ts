import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, isSqlite, sqliteFilename } from '../../../db/connection.ts';
import { createBoard } from '../../../../test/plan-fixtures.ts';
import { startTaskApp } from '../../../../test/task-fixtures.ts';
import type { TaskApp } from '../../../../test/task-fixtures.ts';

/**
 * Tasks under concurrent writers, on SQLite and PostgreSQL: KEY-n stays gap-free and unique, one version wins,
 * links never close a cycle, placements never share a rank, and a board held too long answers 409
 * identifier_allocation_failed, after which the same Idempotency-Key succeeds.
 */
describe('Plan tasks under concurrency', () => {
  let app: TaskApp;
  beforeAll(async () => {
    app = await startTaskApp();
  });
  afterAll(async () => app.t.close());

  it('gives 50 concurrent creations on one board 50 distinct, consecutive keys', async () => {
    const { call, acme } = app;
    const { board } = await createBoard(app.t, acme.adminKey, { name: 'Busy', key: 'BUSY' });
    const keys = [acme.adminKey, acme.member.key, acme.other.key, acme.agentKey];
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, keys[i % keys.length], { title: `Task ${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const numbers = results.map((r) => Number(r.body.key.split('-')[1])).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // Ranks follow the order of the numbers (each creation read the column's end under the board's lock).
    const byNumber = [...results].sort((a, b) => Number(a.body.key.split('-')[1]) - Number(b.body.key.split('-')[1]));
    const ranks = byNumber.map((r) => r.body.rank);
    expect([...ranks].sort()).toEqual(ranks);
    expect(new Set(ranks).size).toBe(50);
  });

  it('lets exactly one of 20 concurrent PATCHes with the same version win; the rest get version_conflict', async () => {
    const { call, acme, board } = app;
    const task = await app.tasks.create(board, { title: 'Contended' });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => call('PATCH', `/v1/plan/tasks/${task.key}/`, acme.adminKey, { title: `Writer ${i}`, version: 1 })));
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    const lost = results.filter((r) => r.status !== 200);
    expect(lost.map((r) => r.body)).toEqual(Array(19).fill({ detail: 'The task changed since it was loaded; it is now at version 2.', code: 'version_conflict', extra: { current_version: 2 } }));
    expect((await app.tasks.get(task.key)).title).toBe(won[0].body.title);
  });

  it('never closes a blocks cycle between links added at the same moment', async () => {
    const { call, acme, board } = app;
    const [a, b, c] = [await app.tasks.create(board), await app.tasks.create(board), await app.tasks.create(board)];
    const link = (from: string, to: string) => call('POST', `/v1/plan/tasks/${from}/relations/`, acme.adminKey, { relation_type: 'blocks', target_task: to });
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([link(a.key, b.key), link(b.key, c.key), link(c.key, a.key)]);
      // However they interleave, at most two of the three links can stand.
      const relations = await app.t.db('plan_task_relations').whereIn('source_task_uuid', [a.uuid, b.uuid, c.uuid]).count({ n: '*' });
      expect(Number(relations[0].n)).toBe(2);
      expect(results.filter((r) => r.status === 409).every((r) => ['relation_cycle', 'relation_exists'].includes(r.body.code))).toBe(true);
      await app.t.db('plan_task_relations').whereIn('source_task_uuid', [a.uuid, b.uuid, c.uuid]).delete();
    }
  });

  it('places concurrent moves to the same spot at distinct ranks, in the column\'s order', async () => {
    const { call, acme } = app;
    const { board, states: columns } = await createBoard(app.t, acme.adminKey, { name: 'Moves', key: 'MOVES' });
    const todo = columns.Todo;
    const anchor = await app.tasks.create(board, { title: 'Anchor', state: todo });
    const last = await app.tasks.create(board, { title: 'Last' });
    const movers = await Promise.all(Array.from({ length: 10 }, (_, i) => app.tasks.create(board, { title: `Mover ${i}`, state: columns.Backlog })));
    const results = await Promise.all(movers.map((m) => call('POST', `/v1/plan/tasks/${m.key}/move/`, acme.adminKey, { state: todo, after: anchor.key })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const column = await call('GET', `/v1/plan/boards/${board.uuid}/tasks/?state=${todo}`, acme.adminKey);
    const ranks = column.body.results.map((t: { rank: string }) => t.rank);
    expect(new Set(ranks).size).toBe(12);
    expect(column.body.results[0].key).toBe(anchor.key);
    expect(column.body.results.at(-1).key).toBe(last.key);
  });

  it('moves tasks between two boards in opposite directions at once without deadlock', async () => {
    const { call, acme } = app;
    const one = await createBoard(app.t, acme.adminKey, { name: 'One', key: 'ONE' });
    const two = await createBoard(app.t, acme.adminKey, { name: 'Two', key: 'TWO' });
    const fromOne = await Promise.all(Array.from({ length: 5 }, () => app.tasks.create(one.board)));
    const fromTwo = await Promise.all(Array.from({ length: 5 }, () => app.tasks.create(two.board)));
    const results = await Promise.all([
      ...fromOne.map((t) => call('POST', `/v1/plan/tasks/${t.key}/move-board/`, acme.adminKey, { board: two.board.uuid })),
      ...fromTwo.map((t) => call('POST', `/v1/plan/tasks/${t.key}/move-board/`, acme.adminKey, { board: one.board.uuid })),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const numbers = (rs: typeof results) => rs.map((r) => Number(r.body.key.split('-')[1])).sort((a, b) => a - b);
    expect(numbers(results.slice(0, 5))).toEqual([6, 7, 8, 9, 10]);
    expect(numbers(results.slice(5))).toEqual([6, 7, 8, 9, 10]);
  });
});

/** A board held by another transaction past the lock timeout (shortened here; PLAN_LOCK_TIMEOUT_MS, 5 s by default). */
describe('Plan task numbers when the board stays locked', () => {
  let app: TaskApp;
  beforeAll(async () => {
    app = await startTaskApp({ planLockTimeoutMs: 300 });
  });
  afterAll(async () => app.t.close());

  it('answers 409 identifier_allocation_failed when the board stays locked; the same Idempotency-Key then succeeds, with no gap', async () => {
    const { call, acme, t } = app;
    const { board } = await createBoard(t, acme.adminKey, { name: 'Held', key: 'HELD' });
    await app.tasks.create(board);
    const refusal = { detail: 'The board is busy and no task number could be allocated in time; retry with the same Idempotency-Key.', code: 'identifier_allocation_failed' };
    const body = { title: 'Waits for the board' };
    const path = `/v1/plan/boards/${board.uuid}/tasks/`;
    if (isSqlite(t.db)) {
      // Another process holds SQLite's write lock (rollcall admin on the same file, say).
      const other = new Database(sqliteFilename(t.config.databaseUrl));
      other.exec('BEGIN IMMEDIATE');
      try {
        const refused = await call('POST', path, acme.adminKey, body);
        expect([refused.status, refused.body]).toEqual([409, refusal]);
      } finally {
        other.exec('ROLLBACK');
        other.close();
      }
      expect((await call('POST', path, acme.adminKey, body)).body.key).toBe('HELD-2');
      return;
    }
    // Another transaction holds the board's row.
    const other = createDb(t.config.databaseUrl);
    const trx = await other.transaction();
    try {
      await trx('plan_boards').where({ uuid: board.uuid }).update({ change_seq: trx.raw('change_seq') });
      const refused = await call('POST', path, acme.adminKey, body, { 'idempotency-key': 'held-board-0001' });
      expect([refused.status, refused.body]).toEqual([409, refusal]);
    } finally {
      await trx.rollback();
      await other.destroy();
    }
    const retried = await call('POST', path, acme.adminKey, body, { 'idempotency-key': 'held-board-0001' });
    expect(retried.status).toBe(201);
    expect(retried.body.key).toBe('HELD-2');
    expect(retried.headers.get('idempotency-replayed')).toBeNull();
    expect((await call('POST', path, acme.adminKey, body, { 'idempotency-key': 'held-board-0001' })).headers.get('idempotency-replayed')).toBe('true');
  });
});
