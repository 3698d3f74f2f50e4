import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateNKeysBetween } from 'fractional-indexing';
import type { TestApp } from '../../../../test/harness.ts';
import { createBoard, insertTask, startBoardApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';

describe('Plan states (CONTRACT §9; spec last_done_state, states_reorder_invalid, state_in_use, board_not_initialized)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  let board: { uuid: string };
  let states: Record<string, string>;
  let base: string;
  beforeEach(async () => ({ t, acme, call, board, states, base } = await startBoardApp('states')));
  afterEach(async () => t.close());

  const live = async () => (await call('GET', base, acme.adminKey)).body.results.map((s: { name: string; is_default: boolean }) => `${s.name}${s.is_default ? '*' : ''}`);

  it('creates a state at the end, renames, recolours and re-categorizes it; names are unique among live states', async () => {
    const created = await call('POST', base, acme.adminKey, { name: 'Review', category: 'in_progress' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      uuid: created.body.uuid, id: created.body.uuid, board: board.uuid, name: 'Review', category: 'in_progress', position: 5, color: '#F2C94C', is_default: false,
      archived_at: null, is_archived: false, created_at: '2026-03-10T15:00:00.000Z', updated_at: '2026-03-10T15:00:00.000Z',
    });
    expect((await call('POST', base, acme.adminKey, { name: 'review', category: 'todo' })).body).toEqual({ name: ['A live state of this board already has this name.'] });
    expect((await call('POST', base, acme.adminKey, { name: 'QA', category: 'waiting' })).body).toEqual({ category: ['Must be one of: backlog, todo, in_progress, done, canceled.'] });
    const patched = await call('PATCH', `${base}${created.body.uuid}/`, acme.adminKey, { name: 'Code review', color: '#112233', category: 'todo' });
    expect(patched.body).toMatchObject({ name: 'Code review', color: '#112233', category: 'todo' });
    const one = await t.request('GET', `${base}${created.body.uuid}/`, { key: acme.member.key, example: true });
    expect([one.status, one.body]).toEqual([200, patched.body]);
    expect((await call('PATCH', `${base}${created.body.uuid}/`, acme.adminKey, { color: 'blue' })).body).toEqual({ color: ['Must be a colour like #5E6AD2.'] });
  });

  it('keeps one live done column: 400 last_done_state on archiving or re-categorizing the last one', async () => {
    const refused = (doing: string) => ({ detail: `A board keeps at least one live done column; this is the last one, so it cannot be ${doing}.`, code: 'last_done_state' });
    expect((await call('POST', `${base}${states.Done}/archive/`, acme.adminKey, {})).body).toEqual(refused('archived'));
    expect((await call('PATCH', `${base}${states.Done}/`, acme.adminKey, { category: 'canceled' })).body).toEqual(refused('re-categorized'));
    expect((await call('DELETE', `${base}${states.Done}/`, acme.adminKey)).body.code).toBe('last_done_state');
    const shipped = await call('POST', base, acme.adminKey, { name: 'Shipped', category: 'done' });
    expect((await call('POST', `${base}${states.Done}/archive/`, acme.adminKey, {})).status).toBe(200);
    expect((await call('PATCH', `${base}${shipped.body.uuid}/`, acme.adminKey, { category: 'todo' })).body.code).toBe('last_done_state');
  });

  it('reorders live states; 400 states_reorder_invalid unless the list names every live column exactly once', async () => {
    const order = [states.Done, states.Canceled, states.Backlog, states.Todo, states['In Progress']];
    const res = await call('POST', `${base}reorder/`, acme.adminKey, { order });
    expect(res.status).toBe(200);
    expect(res.body.map((s: { uuid: string; position: number }) => [s.uuid, s.position])).toEqual(order.map((uuid, i) => [uuid, i]));
    expect(await live()).toEqual(['Done', 'Canceled', 'Backlog', 'Todo*', 'In Progress']);

    await call('POST', `${base}${states.Canceled}/archive/`, acme.adminKey, {});
    const liveOrder = [states.Done, states.Backlog, states.Todo, states['In Progress']];
    const invalid = [
      liveOrder.slice(1),
      [...liveOrder, states.Done],
      [...liveOrder.slice(1), states.Backlog],
      [...liveOrder, states.Canceled],
      [...liveOrder.slice(1), '0190c8f4-0000-7000-8000-000000000000'],
      [...liveOrder.slice(1), 'nonsense'],
    ];
    for (const order of invalid) {
      const refused = await call('POST', `${base}reorder/`, acme.adminKey, { order });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ detail: 'order must name every live state of the board exactly once.', code: 'states_reorder_invalid', extra: { live_states: liveOrder } });
    }
    expect((await call('POST', `${base}reorder/`, acme.adminKey, { order: liveOrder.reverse() })).status).toBe(200);
  });

  it('archives a state with live tasks only with migrate_to (409 state_in_use), moving them after the target\'s last task', async () => {
    const inTodo = [await insertTask(t, board, states.Todo), await insertTask(t, board, states.Todo)];
    await insertTask(t, board, states.Backlog, { archived: true });
    // The target column's task ranks after the moving ones (a0 < a1 < a2): the moved ones go after it all the same.
    await insertTask(t, board, states.Done);
    await insertTask(t, board, states.Done);
    const tail = await insertTask(t, board, states.Done);

    const blocked = await call('POST', `${base}${states.Todo}/archive/`, acme.adminKey, {});
    expect(blocked.status).toBe(409);
    expect(blocked.body).toEqual({ detail: '2 live task(s) are in this state; send migrate_to with the state to move them to.', code: 'state_in_use', extra: { live_tasks: 2 } });

    const other = await createBoard(t, acme.adminKey, { key: 'OTHER' });
    const wrongBoard = await call('POST', `${base}${states.Todo}/archive/`, acme.adminKey, { migrate_to: other.states.Done });
    expect(wrongBoard.status).toBe(400);
    expect(wrongBoard.body).toEqual({ detail: 'migrate_to must name a state of this board.', code: 'state_not_on_board', extra: { parameter: 'migrate_to' } });
    expect((await call('POST', `${base}${states.Todo}/archive/`, acme.adminKey, { migrate_to: states.Todo })).body.code).toBe('state_in_use');
    await call('POST', `${base}${states.Canceled}/archive/`, acme.adminKey, {});
    const toArchived = await call('POST', `${base}${states.Todo}/archive/`, acme.adminKey, { migrate_to: states.Canceled });
    expect(toArchived.status).toBe(409);
    expect(toArchived.body).toEqual({ detail: 'migrate_to must name another live state of this board.', code: 'state_in_use', extra: { parameter: 'migrate_to' } });

    // A state holding only archived tasks archives without migrate_to.
    expect((await call('POST', `${base}${states.Backlog}/archive/`, acme.adminKey, {})).status).toBe(200);

    t.clock.advance(1_000);
    const moved = await call('POST', `${base}${states.Todo}/archive/`, acme.adminKey, { migrate_to: states.Done });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ uuid: states.Todo, is_archived: true, is_default: false, moved_tasks: 2 });
    const tasks = await t.db('plan_tasks').whereIn('uuid', [...inTodo, tail]).orderBy('rank');
    expect(tasks.map((task) => [task.uuid, task.rank])).toEqual([[tail, 'a2'], [inTodo[0], 'a3'], [inTodo[1], 'a4']]);
    for (const task of tasks.slice(1)) expect(task).toMatchObject({ state_uuid: states.Done, version: 2, completed_at: '2026-03-10T15:00:01.000Z' });
    // The default moved to the remaining default-capable column.
    expect(await live()).toEqual(['In Progress*', 'Done']);
  });

  it('answers 422 column_too_large when the target column would pass 5,000 live tasks', async () => {
    const now = t.clock.now().toISOString();
    const ranks = generateNKeysBetween(null, null, 5000);
    const rows = ranks.map((rank, i) => ({
      uuid: `0190c8f4-0000-7000-8000-${String(i).padStart(12, '0')}`, organization_uuid: acme.org.uuid, board_uuid: board.uuid, number: 1000 + i,
      title: `t${i}`, description: '', state_uuid: states.Done, version: 1, rank, created_at: now, updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 250) await t.db('plan_tasks').insert(rows.slice(i, i + 250));
    await insertTask(t, board, states.Todo);
    const refused = await call('POST', `${base}${states.Todo}/archive/`, acme.adminKey, { migrate_to: states.Done });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ detail: 'The target column would hold more than 5000 tasks.', code: 'column_too_large', extra: { limit: 5000, current: 5000, moving: 1 } });
  });

  it('keeps one default column: moves it when its state is archived or becomes done; 409 board_not_initialized when none can take it', async () => {
    expect((await call('PATCH', `${base}${states.Backlog}/`, acme.adminKey, { is_default: true })).body.is_default).toBe(true);
    expect(await live()).toEqual(['Backlog*', 'Todo', 'In Progress', 'Done', 'Canceled']);
    expect((await call('PATCH', `${base}${states.Done}/`, acme.adminKey, { is_default: true })).body).toEqual({ is_default: ['The default column must be a backlog, todo or in-progress state.'] });
    expect((await call('PATCH', `${base}${states.Backlog}/`, acme.adminKey, { is_default: false })).body).toEqual({ is_default: ['A board keeps one default column: make another state the default instead.'] });

    // Re-categorized into canceled: the default moves to the first default-capable column.
    await call('PATCH', `${base}${states.Backlog}/`, acme.adminKey, { category: 'canceled' });
    expect(await live()).toEqual(['Backlog', 'Todo*', 'In Progress', 'Done', 'Canceled']);
    await call('POST', `${base}${states['In Progress']}/archive/`, acme.adminKey, {});
    const last = await call('POST', `${base}${states.Todo}/archive/`, acme.adminKey, {});
    expect(last.status).toBe(409);
    expect(last.body).toEqual({ detail: 'The board would have no default column (a live backlog, todo or in-progress state) for new tasks; create one first.', code: 'board_not_initialized' });
    expect((await call('PATCH', `${base}${states.Todo}/`, acme.adminKey, { category: 'done' })).body.code).toBe('board_not_initialized');
    // With another default-capable column, it goes.
    await call('POST', base, acme.adminKey, { name: 'Next', category: 'todo' });
    expect((await call('POST', `${base}${states.Todo}/archive/`, acme.adminKey, {})).status).toBe(200);
    expect(await live()).toEqual(['Backlog', 'Done', 'Canceled', 'Next*']);
  });

  it('restores an archived state at the end; its name must be free; DELETE archives with migrate_to from the body or the query', async () => {
    await insertTask(t, board, states.Backlog);
    const deleted = await call('DELETE', `${base}${states.Backlog}/?migrate_to=${states.Todo}`, acme.adminKey);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ uuid: states.Backlog, is_archived: true, moved_tasks: 1 });
    expect((await call('GET', `${base}?include_archived=true`, acme.adminKey)).body.results.map((s: { name: string }) => s.name)).toEqual(['Todo', 'In Progress', 'Done', 'Canceled', 'Backlog']);

    await call('POST', base, acme.adminKey, { name: 'Backlog', category: 'backlog' });
    expect((await call('POST', `${base}${states.Backlog}/restore/`, acme.adminKey, {})).body).toEqual({ name: ['A live state of this board already has this name.'] });
    await call('PATCH', `${base}${states.Backlog}/`, acme.adminKey, { name: 'Icebox' });
    const restored = await call('POST', `${base}${states.Backlog}/restore/`, acme.adminKey, {});
    // Positions order the live columns; they are not renumbered when one is archived.
    expect(restored.body).toMatchObject({ name: 'Icebox', is_archived: false, position: 6 });
    // migrate_to in the body.
    await insertTask(t, board, states.Backlog);
    const viaBody = await t.request('DELETE', `${base}${states.Backlog}/`, { key: acme.adminKey, body: { migrate_to: states.Todo }, example: true });
    expect([viaBody.status, viaBody.body]).toEqual([200, expect.objectContaining({ uuid: states.Backlog, name: 'Icebox', is_archived: true, moved_tasks: 1 })]);
  });
});
