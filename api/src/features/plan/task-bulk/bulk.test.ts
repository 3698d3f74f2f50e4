import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpPlanTables } from '../../../../test/plan-fixtures.ts';
import { startTaskApp } from '../../../../test/task-fixtures.ts';
import type { TaskApp } from '../../../../test/task-fixtures.ts';

/** tasks/bulk/ (spec: Idempotency-Key required, at most 100 items, bulk ceiling 30 per minute). */
describe('Plan bulk task changes', () => {
  let app: TaskApp;
  let n = 0;
  beforeAll(async () => {
    app = await startTaskApp({ planMinuteLimits: { reads: 1e6, writes: 1e6, bulk: 30, delta: 1e6 } });
  });
  afterAll(async () => app.t.close());

  const bulk = (body: unknown, key: string | null = `bulk-call-${String(++n).padStart(4, '0')}`, query = '') =>
    app.call('POST', `/v1/plan/tasks/bulk/${query}`, app.acme.adminKey, body, key ? { 'idempotency-key': key } : {});

  it('answers per item: good items are kept, refused ones answer what the single call would', async () => {
    const { acme, board, states } = app;
    const [a, b, c] = [await app.tasks.create(board), await app.tasks.create(board), await app.tasks.create(board)];
    await app.call('PATCH', `/v1/plan/tasks/${c.key}/`, acme.adminKey, { title: 'Changed' });
    const res = await bulk({
      operation: 'update',
      items: [
        { task: a.key, priority: 1 },
        { task: b.uuid, state: app.states.Done, title: 'Done now', version: 1 },
        { task: c.key, title: 'Stale', version: 1 },
        { task: 'PLAT-999', title: 'Missing' },
        { task: a.key, priority: 9 },
        { task: b.key, colour: 'red' },
        'not an object',
        { task: b.key, state: '0190c8f4-0000-7000-8000-000000000000' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ operation: 'update', atomic: false, committed: true, succeeded: 2, failed: 6 });
    expect(res.body.results.map((r: { index: number; status: number }) => [r.index, r.status])).toEqual([[0, 200], [1, 200], [2, 409], [3, 404], [4, 400], [5, 400], [6, 400], [7, 400]]);
    expect(res.body.results[0].task).toMatchObject({ uuid: a.uuid, priority: 1, version: 2 });
    expect(res.body.results[1].task).toMatchObject({ title: 'Done now', state: states.Done, version: 2 });
    expect(res.body.results.slice(2).map((r: { error: unknown }) => r.error)).toEqual([
      { detail: 'The task changed since it was loaded; it is now at version 2.', code: 'version_conflict', extra: { current_version: 2 } },
      { detail: 'Not found.', code: 'not_found' },
      { priority: ['Ensure this value is less than or equal to 5.'] },
      { detail: 'Unknown field: colour.', code: 'unknown_field', extra: { parameter: 'colour' } },
      { non_field_errors: ['Expected a JSON object.'] },
      { detail: `state must be a live state of board ${board.key}.`, code: 'state_not_on_board', extra: { parameter: 'state' } },
    ]);
    expect((await app.tasks.get(a.key)).priority).toBe(1);
    // A refused item leaves no trace in the change log.
    expect(await app.t.db('plan_changes').where({ object_uuid: c.uuid }).count({ n: '*' }).then((r) => Number(r[0].n))).toBe(2);
  });

  it('moves, labels, archives and restores; atomic calls keep nothing when one item is refused', async () => {
    const { acme, board, states, call } = app;
    const bug = (await call('POST', `/v1/plan/boards/${board.uuid}/labels/`, acme.adminKey, { name: 'bulk-bug' })).body.uuid;
    const [a, b] = [await app.tasks.create(board), await app.tasks.create(board)];
    expect((await bulk({ operation: 'move', items: [{ task: b.key, state: states['In Progress'] }, { task: a.key, state: states['In Progress'], before: b.key }] })).body.succeeded).toBe(2);
    const column = await call('GET', `/v1/plan/boards/${board.uuid}/tasks/?state=${states['In Progress']}`, acme.adminKey);
    expect(column.body.results.map((t: { key: string }) => t.key)).toEqual([a.key, b.key]);
    expect((await bulk({ operation: 'label', items: [{ task: a.key, mode: 'add', labels: [bug] }, { task: b.key, mode: 'add', labels: [bug] }] })).body.succeeded).toBe(2);
    expect((await bulk({ operation: 'archive', items: [{ task: a.key }, { task: b.key }] })).body.results.map((r: { task: { archived_at: string } }) => r.task.archived_at)).toEqual(['2026-03-10T15:00:00.000Z', '2026-03-10T15:00:00.000Z']);

    const before = await dumpPlanTables(app.t);
    const atomic = await bulk({ operation: 'restore', atomic: true, items: [{ task: a.key }, { task: b.key, version: 1 }] });
    expect(atomic.body).toMatchObject({ atomic: true, committed: false, succeeded: 0, failed: 1 });
    expect(atomic.body.results.map((r: { status: number }) => r.status)).toEqual([200, 409]);
    // Nothing kept but the stored answer of the Idempotency-Key.
    const after = JSON.parse(await dumpPlanTables(app.t));
    const was = JSON.parse(before);
    delete after.plan_idempotency_keys;
    delete was.plan_idempotency_keys;
    expect(after).toEqual(was);
    expect((await bulk({ operation: 'restore', atomic: true, items: [{ task: a.key }, { task: b.key }] })).body).toMatchObject({ committed: true, succeeded: 2 });
  });

  it('needs an Idempotency-Key, replays it, takes at most 100 items, and refuses an unknown operation as invalid_relation', async () => {
    const { board } = app;
    const task = await app.tasks.create(board);
    const refused = await bulk({ operation: 'archive', items: [{ task: task.key }] }, null);
    expect([refused.status, refused.body]).toEqual([400, { detail: 'This call needs an Idempotency-Key header (8 to 128 printable ASCII characters without spaces (! to ~)).', code: 'idempotency_key_required' }]);
    const first = await bulk({ operation: 'archive', items: [{ task: task.key }] }, 'bulk-replay-0001');
    const again = await bulk({ operation: 'archive', items: [{ task: task.key }] }, 'bulk-replay-0001');
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await bulk({ operation: 'archive', items: [{ task: task.key }, { task: task.key }] }, 'bulk-replay-0001')).body.code).toBe('idempotency_key_payload_mismatch');

    expect((await bulk({ operation: 'archive', items: Array(100).fill({ task: task.key }) })).body).toMatchObject({ succeeded: 100 });
    const tooMany = await bulk({ operation: 'archive', items: Array(101).fill({ task: task.key }) });
    expect([tooMany.status, tooMany.body]).toEqual([400, { detail: 'A bulk call takes at most 100 items.', code: 'too_many_items', extra: { limit: 100, count: 101 } }]);
    const unknown = await bulk({ operation: 'delete', items: [{ task: task.key }] });
    expect([unknown.status, unknown.body]).toEqual([400, { detail: 'Unknown bulk operation delete; use one of: update, move, archive, restore, label, create.', code: 'invalid_relation', extra: { parameter: 'operation' } }]);
    expect((await bulk({ operation: 'archive', items: [] })).body).toEqual({ items: ['Ensure this list has at least 1 items.'] });
    expect((await bulk({ operation: 'archive' })).body).toEqual({ items: ['This field is required.'] });
    // A dry run keeps nothing, not even its key.
    const before = await dumpPlanTables(app.t);
    expect((await bulk({ operation: 'restore', items: [{ task: task.key }] }, 'bulk-dry-run-01', '?dry_run=true')).body).toMatchObject({ dry_run: true, result: { succeeded: 1 } });
    expect(await dumpPlanTables(app.t)).toBe(before);
  });

  it('has its own ceiling of 30 calls a minute per actor', async () => {
    const { t, acme, board } = app;
    const task = await app.tasks.create(board);
    t.clock.advance(60_000);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await bulk({ operation: 'archive', items: [{ task: task.key }] })).status);
    expect(statuses).toEqual(Array(30).fill(200));
    const throttled = await bulk({ operation: 'archive', items: [{ task: task.key }] });
    expect(throttled.status).toBe(429);
    expect(throttled.body).toMatchObject({ code: 'throttled', extra: { retry_after: expect.any(Number) } });
    expect(throttled.headers.get('ratelimit-policy')).toContain('"plan-bulk";q=30;w=60');
    // Other writes have their own ceiling.
    expect((await app.call('PATCH', `/v1/plan/tasks/${task.key}/`, acme.adminKey, { title: 'Still writable' })).status).toBe(200);
  });
});
