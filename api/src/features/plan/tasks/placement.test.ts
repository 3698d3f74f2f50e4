import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createBoard, dumpPlanTables } from '../../../../test/plan-fixtures.ts';
import { boardMaker, startTaskApp } from '../../../../test/task-fixtures.ts';
import type { TaskApp } from '../../../../test/task-fixtures.ts';
import { uuidv7 } from '../../../lib/ids.ts';

/** Placement (spec: after or before neighbours, 5,000 tasks per column, move-board with state or state_map). */
describe('Plan task placement', () => {
  let app: TaskApp;
  beforeAll(async () => {
    app = await startTaskApp();
  });
  afterAll(async () => app.t.close());

  const newBoard = boardMaker(() => app, 'P');
  const column = async (board: { uuid: string }, state: string) =>
    (await app.call('GET', `/v1/plan/boards/${board.uuid}/tasks/?state=${state}&page_size=100`, app.acme.adminKey)).body.results.map((t: { key: string }) => t.key);
  const move = (ref: string, body: unknown, key = app.acme.adminKey) => app.call('POST', `/v1/plan/tasks/${ref}/move/`, key, body);

  it('places a task after, before or between neighbours, or at the end of a column', async () => {
    const { board, states } = await newBoard();
    const [a, b, c, d] = [await app.tasks.create(board), await app.tasks.create(board), await app.tasks.create(board), await app.tasks.create(board)];
    expect(await column(board, states.Todo)).toEqual([a.key, b.key, c.key, d.key]);
    const moved = await move(d.key, { state: states.Todo, after: a.key });
    expect(moved.body).toMatchObject({ state: states.Todo, version: 2 });
    expect(moved.headers.get('etag')).toBe('"2"');
    expect(await column(board, states.Todo)).toEqual([a.key, d.key, b.key, c.key]);
    await move(a.key, { state: states.Todo, before: c.key });
    expect(await column(board, states.Todo)).toEqual([d.key, b.key, a.key, c.key]);
    await move(c.key, { state: states.Todo, after: d.uuid, before: b.uuid });
    expect(await column(board, states.Todo)).toEqual([d.key, c.key, b.key, a.key]);
    await move(d.key, { state: states['In Progress'] });
    expect(await column(board, states['In Progress'])).toEqual([d.key]);
    await move(b.key, { state: states['In Progress'], before: d.key });
    expect(await column(board, states['In Progress'])).toEqual([b.key, d.key]);
    // Its own end again: nothing changes, not even the version.
    expect((await move(d.key, { state: states['In Progress'] })).body.version).toBe(3);
    expect((await move(c.key, { state: states.Todo, after: c.key })).body).toEqual({ after: ['A task cannot be placed next to itself.'] });
    expect((await move(c.key, { state: app.states.Todo })).body.code).toBe('state_not_on_board');
    expect((await move(c.key, { after: a.key })).body).toEqual({ state: ['This field is required.'] });
  });

  it('answers 409 rank_neighbor_missing, naming the column\'s head and tail, when a neighbour left the column', async () => {
    const { board, states } = await newBoard();
    const [a, b, c] = [await app.tasks.create(board), await app.tasks.create(board), await app.tasks.create(board)];
    // Someone moved b to another column meanwhile; a client still places c after it.
    await move(b.key, { state: states.Backlog });
    const refused = await move(c.key, { state: states.Todo, after: b.key });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      detail: 'The after task is no longer in this column; place the task again against the column as it is now.',
      code: 'rank_neighbor_missing',
      extra: { parameter: 'after', state: states.Todo, head: { uuid: a.uuid, key: a.key }, tail: { uuid: c.uuid, key: c.key } },
    });
    // Archived, deleted, or never a task: the same.
    await app.call('POST', `/v1/plan/tasks/${a.key}/archive/`, app.acme.adminKey, {});
    expect((await move(c.key, { state: states.Todo, before: a.key })).body).toMatchObject({ code: 'rank_neighbor_missing', extra: { parameter: 'before', head: { key: c.key }, tail: { key: c.key } } });
    expect((await move(b.key, { state: states.Todo, after: 'P999-1' })).body).toMatchObject({ code: 'rank_neighbor_missing', extra: { head: { key: c.key } } });
    // Neighbours out of order (after below before) moved too.
    const d = await app.tasks.create(board);
    expect((await move(b.key, { state: states.Todo, after: d.key, before: c.key })).body).toMatchObject({ code: 'rank_neighbor_missing', extra: { parameter: 'before' } });
    // An empty column: no head, no tail.
    expect((await move(b.key, { state: states.Done, after: c.key })).body.extra).toEqual({ parameter: 'after', state: states.Done, head: null, tail: null });
  });

  it('spreads ranks over a neighbourhood when one spot fills up, never rewriting the column', async () => {
    const { t, acme } = app;
    const { board, states } = await newBoard();
    const anchor = await app.tasks.create(board, { title: 'Anchor' });
    // What some 270 placements right after the anchor leave: ranks between it and the next task, each longer than the last.
    let rank = generateKeyBetween(anchor.rank, null);
    const chain: string[] = [];
    while (generateKeyBetween(anchor.rank, rank).length <= 48) chain.push((rank = generateKeyBetween(anchor.rank, rank)));
    const crowded = chain.slice(-30).reverse();
    const rows = [...crowded, ...generateNKeysBetween(chain[0], null, 40)].map((r, i) => ({
      uuid: uuidv7(), organization_uuid: acme.org.uuid, board_uuid: board.uuid, number: i + 2, title: `Placed ${i}`, description: '', state_uuid: states.Todo,
      version: 1, rank: r, created_at: t.clock.now().toISOString(), updated_at: t.clock.now().toISOString(),
    }));
    await t.db('plan_tasks').insert(rows);
    await t.db('plan_boards').where({ uuid: board.uuid }).update({ next_task_number: rows.length + 2 });
    const mover = await app.tasks.create(board, { state: states.Backlog });
    expect((await move(mover.key, { state: states.Todo, after: anchor.key })).status).toBe(200);
    const order = await t.db('plan_tasks').where({ state_uuid: states.Todo }).orderBy('rank').select('number', 'rank', 'version');
    expect(order.map((r) => r.number)).toEqual([1, Number(mover.key.split('-')[1]), ...rows.map((r) => r.number)]);
    expect(order.every((r) => r.rank.length <= 48)).toBe(true);
    // A neighbourhood was spread (each a `moved` change of its rank); the far end of the column kept its ranks.
    const spread = order.filter((r) => r.version === 2 && r.number !== Number(mover.key.split('-')[1])).length;
    expect(spread).toBeGreaterThan(10);
    expect(spread).toBeLessThan(order.length - 20);
    expect(await countRows(t, 'plan_changes', (q) => q.where({ board_uuid: board.uuid, change_kind: 'moved' }).whereNot('object_uuid', mover.uuid))).toBe(spread);
  });

  it('holds at most 5,000 live tasks in a column (422 column_too_large), with no gap in keys under concurrent creation', async () => {
    const { t, call, acme } = app;
    const { board, states } = await newBoard();
    // 4,995 tasks written directly, as the task endpoints would.
    const ranks = generateNKeysBetween(null, null, 4_995);
    const rows = ranks.map((rank, i) => ({
      uuid: uuidv7(), organization_uuid: acme.org.uuid, board_uuid: board.uuid, number: i + 1, title: `Bulk ${i}`, description: '', state_uuid: states.Todo,
      version: 1, rank, created_at: t.clock.now().toISOString(), updated_at: t.clock.now().toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 200) await t.db('plan_tasks').insert(rows.slice(i, i + 200));
    await t.db('plan_boards').where({ uuid: board.uuid }).update({ next_task_number: 4_996 });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: `Late ${i}` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body])).toEqual(Array(5).fill([422, { detail: 'This column already holds 5000 tasks; a column holds at most 5000.', code: 'column_too_large', extra: { limit: 5000, current: 5000 } }]));
    expect(results.filter((r) => r.status === 201).map((r) => r.body.key).sort()).toEqual([4_996, 4_997, 4_998, 4_999, 5_000].map((n) => `${board.key}-${n}`));
    // A refused creation gives its number back: the next one takes 5,001.
    const elsewhere = await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: 'Elsewhere', state: states.Backlog });
    expect(elsewhere.body.key).toBe(`${board.key}-5001`);
    expect((await move(elsewhere.body.key, { state: states.Todo })).body.code).toBe('column_too_large');
    // Reordering inside the full column is fine; so is archiving, and then a restore finds it full again.
    expect((await move(`${board.key}-5000`, { state: states.Todo, after: `${board.key}-1` })).status).toBe(200);
    await call('POST', `/v1/plan/tasks/${board.key}-2/archive/`, acme.adminKey, {});
    expect((await move(elsewhere.body.key, { state: states.Todo })).status).toBe(200);
    const restore = await call('POST', `/v1/plan/tasks/${board.key}-2/restore/`, acme.adminKey, {});
    expect([restore.status, restore.body.code]).toEqual([422, 'column_too_large']);
  }, 60_000);

  it('moves a task to another board with a new key; the old key keeps resolving; state or state_map must fit', async () => {
    const { t, call, acme } = app;
    const { board: from, states: fromStates } = await newBoard();
    const { board: to, states: toStates } = await newBoard();
    const label = async (board: { uuid: string }, name: string) => (await call('POST', `/v1/plan/boards/${board.uuid}/labels/`, acme.adminKey, { name })).body.uuid as string;
    const [bug, ui] = [await label(from, 'bug'), await label(from, 'ui')];
    const targetBug = await label(to, 'Bug');
    await app.tasks.create(to);
    const task = await app.tasks.create(from, { labels: [bug, ui], state: fromStates['In Progress'], owner: acme.member.user.uuid });
    const path = `/v1/plan/tasks/${task.key}/move-board/`;
    const invalid = (detail: string, extra?: Record<string, unknown>) => ({ detail, code: 'move_board_state_invalid', ...(extra ? { extra } : {}) });
    expect((await call('POST', path, acme.adminKey, { board: to.uuid, state: fromStates.Todo })).body).toEqual(invalid(`state must name a live state of board ${to.key}.`, { parameter: 'state' }));
    expect((await call('POST', path, acme.adminKey, { board: to.uuid, state: toStates.Todo, state_map: {} })).body).toEqual(invalid('Send state or state_map, not both.'));
    expect((await call('POST', path, acme.adminKey, { board: to.uuid, state_map: { [toStates.Todo]: toStates.Todo } })).body).toEqual(invalid(`state_map keys must be states of the task's board; ${toStates.Todo} is not.`, { parameter: 'state_map' }));
    expect((await call('POST', path, acme.adminKey, { board: to.uuid, state_map: { [fromStates['In Progress']]: 'nope' } })).body.code).toBe('move_board_state_invalid');
    expect((await call('POST', path, acme.adminKey, { board: from.uuid })).body).toEqual({ board: ['The task is already on this board; use …/move/ to change its column.'] });

    // A dry run first: it would answer the moved task, and nothing is kept.
    const before = await dumpPlanTables(t);
    const dry = await call('POST', `${path}?dry_run=true`, acme.adminKey, { board: to.uuid, state_map: { [fromStates['In Progress']]: toStates.Done } });
    expect(dry.body).toMatchObject({ dry_run: true, status: 200, result: { key: `${to.key}-2`, board: to.uuid } });
    expect(await dumpPlanTables(t)).toBe(before);

    const moved = await call('POST', path, acme.adminKey, { board: to.uuid, state_map: { [fromStates['In Progress']]: toStates.Done } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ uuid: task.uuid, key: `${to.key}-2`, board: to.uuid, state: toStates.Done, labels: [targetBug], version: 2, completed_at: '2026-03-10T15:00:00.000Z' });
    for (const ref of [task.key, `${to.key}-2`, task.uuid]) expect((await call('GET', `/v1/plan/tasks/${ref}/`, acme.adminKey)).body.key).toBe(`${to.key}-2`);
    // The old key is never given out again on its board.
    expect((await app.tasks.create(from)).key).toBe(`${from.key}-2`);
    // Renaming the old board keeps the old key resolving too.
    await call('PATCH', `/v1/plan/boards/${from.uuid}/`, acme.adminKey, { key: `${from.key}X` });
    expect((await call('GET', `/v1/plan/tasks/${task.key}/`, acme.adminKey)).body.uuid).toBe(task.uuid);
    // Each board's stream learns of it; the organization one event, the task's history one move.
    const rows = await t.db('plan_changes').where({ object_uuid: task.uuid, change_kind: 'moved' }).orderBy('id');
    expect(rows.map((r) => [r.board_uuid, r.task_uuid])).toEqual([[from.uuid, null], [to.uuid, task.uuid]]);
    // Back again with neither state nor map: the target's default column, yet another key, its label by name.
    expect((await call('POST', `/v1/plan/tasks/${task.uuid}/move-board/`, acme.adminKey, { board: from.uuid })).body).toMatchObject({ key: `${from.key}X-3`, state: fromStates.Todo, labels: [bug], completed_at: null });
  });

  it('keeps owners, participants and sub-tasks on boards they belong to (participant_cannot_access_board, subtask_cross_board)', async () => {
    const { call, acme } = app;
    const { board: from } = await newBoard();
    const { board: secret } = await newBoard({ visibility: 'members' });
    const owned = await app.tasks.create(from, { owner: acme.member.user.uuid });
    expect((await call('POST', `/v1/plan/tasks/${owned.key}/move-board/`, acme.adminKey, { board: secret.uuid })).body).toMatchObject({ code: 'participant_cannot_access_board', extra: { parameter: 'owner' } });
    const parent = await app.tasks.create(from);
    const child = (await call('POST', `/v1/plan/tasks/${parent.key}/children/`, acme.adminKey, { title: 'Child' })).body;
    const crossBoard = { code: 'subtask_cross_board' };
    expect((await call('POST', `/v1/plan/tasks/${parent.key}/move-board/`, acme.adminKey, { board: secret.uuid })).body).toMatchObject({ ...crossBoard, detail: 'This task has live sub-tasks, which stay on its board; move or detach them first.' });
    expect((await call('POST', `/v1/plan/tasks/${child.key}/move-board/`, acme.adminKey, { board: secret.uuid })).body).toMatchObject({ ...crossBoard, detail: 'A sub-task stays on its parent\'s board; detach it (parent_task: null) first.' });
    // An archived sub-task does not hold its parent back: it is detached.
    await call('POST', `/v1/plan/tasks/${child.key}/archive/`, acme.adminKey, {});
    expect((await call('POST', `/v1/plan/tasks/${parent.key}/move-board/`, acme.adminKey, { board: secret.uuid })).status).toBe(200);
    expect((await app.tasks.get(child.key)).parent_task).toBeNull();
    // A board the caller cannot see is not a target.
    const hidden = await createBoard(app.t, acme.member.key, { name: 'Mine', key: 'MINE', visibility: 'members' });
    expect((await call('POST', `/v1/plan/tasks/${owned.key}/move-board/`, acme.other.key, { board: hidden.board.uuid })).body).toEqual({ board: ['No board with this id.'] });
  });
});
