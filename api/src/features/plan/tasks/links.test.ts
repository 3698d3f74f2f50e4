import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoard } from '../../../../test/plan-fixtures.ts';
import { boardMaker, startTaskApp } from '../../../../test/task-fixtures.ts';
import type { TaskApp } from '../../../../test/task-fixtures.ts';

/** Sub-tasks (one level, on the parent's board) and relations (blocks, relates_to, duplicates; inverse; cycles; 50 blocks). */
describe('Plan sub-tasks and relations', () => {
  let app: TaskApp;
  beforeAll(async () => {
    app = await startTaskApp();
  });
  afterAll(async () => app.t.close());
  const newBoard = boardMaker(() => app, 'L');

  it('nests sub-tasks one level deep, on the parent\'s board', async () => {
    const { call, acme, board } = app;
    const parent = await app.tasks.create(board, { title: 'Parent' });
    const child = await call('POST', `/v1/plan/tasks/${parent.key}/children/`, acme.adminKey, { title: 'Child', priority: 2 });
    expect(child.status).toBe(201);
    expect(child.body).toMatchObject({ parent_task: parent.uuid, board: board.uuid, priority: 2 });
    const viaBody = await app.tasks.create(board, { title: 'Second child', parent_task: parent.key });
    expect(viaBody.parent_task).toBe(parent.uuid);
    const depth = { code: 'subtask_depth_exceeded' };
    expect((await call('POST', `/v1/plan/tasks/${child.body.key}/children/`, acme.adminKey, { title: 'Grandchild' })).body).toEqual({ ...depth, detail: 'Sub-tasks nest one level only: the parent is itself a sub-task.' });
    const loose = await app.tasks.create(board);
    expect((await call('PATCH', `/v1/plan/tasks/${parent.key}/`, acme.adminKey, { parent_task: loose.key })).body).toEqual({ ...depth, detail: 'Sub-tasks nest one level only: this task has sub-tasks of its own.' });
    expect((await call('PATCH', `/v1/plan/tasks/${loose.key}/`, acme.adminKey, { parent_task: loose.key })).body).toEqual({ detail: 'A task cannot be its own parent.', code: 'invalid_relation', extra: { parameter: 'parent_task' } });
    const { board: other } = await newBoard();
    const elsewhere = await app.tasks.create(other);
    expect((await call('PATCH', `/v1/plan/tasks/${loose.key}/`, acme.adminKey, { parent_task: elsewhere.key })).body).toEqual({ detail: 'A sub-task lives on its parent\'s board.', code: 'subtask_cross_board' });
    expect((await call('POST', `/v1/plan/boards/${other.uuid}/tasks/`, acme.adminKey, { title: 'x', parent_task: parent.uuid })).body.code).toBe('subtask_cross_board');
    expect((await call('PATCH', `/v1/plan/tasks/${loose.key}/`, acme.adminKey, { parent_task: 'NOPE-9' })).body).toEqual({ parent_task: ['No task with this id.'] });
    expect((await call('POST', `/v1/plan/tasks/${parent.key}/children/`, acme.adminKey, { title: 'x', parent_task: loose.key })).body).toEqual({ parent_task: ['A sub-task created here has this task as its parent; leave parent_task out.'] });
    // Listed under the parent, in column order; detaching makes it a task of its own.
    const children = await call('GET', `/v1/plan/tasks/${parent.key}/children/`, acme.adminKey);
    expect(children.body.results.map((t: { key: string }) => t.key)).toEqual([child.body.key, viaBody.key]);
    expect((await call('GET', `/v1/plan/tasks/${parent.key}/?include=children`, acme.adminKey)).body.children).toEqual({ count: 2, next: null, previous: null, results: [child.body.uuid, viaBody.uuid] });
    expect((await call('PATCH', `/v1/plan/tasks/${viaBody.key}/`, acme.adminKey, { parent_task: null })).body).toMatchObject({ parent_task: null, version: 2 });
  });

  it('links tasks; the other side sees the inverse; relation_exists, invalid_relation and the 50 blocks limit', async () => {
    const { t, call, acme } = app;
    const { board } = await newBoard();
    const [a, b, c] = [await app.tasks.create(board, { title: 'A' }), await app.tasks.create(board, { title: 'B' }), await app.tasks.create(board, { title: 'C' })];
    const link = (from: string, type: string, to: string) => call('POST', `/v1/plan/tasks/${from}/relations/`, acme.adminKey, { relation_type: type, target_task: to });
    const blocks = await link(a.key, 'blocks', b.key);
    expect(blocks.status).toBe(201);
    expect(blocks.body).toEqual({
      uuid: blocks.body.uuid, id: blocks.body.uuid, relation_type: 'blocks', task: { uuid: b.uuid, id: b.uuid, key: b.key, title: 'B' },
      direction: 'outgoing', other_task: { uuid: b.uuid, id: b.uuid, key: b.key, title: 'B' },
      created_by: acme.admin.uuid, created_at: '2026-03-10T15:00:00.000Z',
    });
    await link(c.uuid, 'relates_to', a.uuid);
    await link(b.key, 'duplicates', c.key);
    const sides = async (ref: string) => (await call('GET', `/v1/plan/tasks/${ref}/relations/`, acme.member.key)).body.results.map((r: { relation_type: string; task: { key: string } }) => `${r.relation_type} ${r.task.key}`);
    expect(await sides(a.key)).toEqual([`blocks ${b.key}`, `relates_to ${c.key}`]);
    expect(await sides(b.key)).toEqual([`blocked_by ${a.key}`, `duplicates ${c.key}`]);
    expect(await sides(c.key)).toEqual([`relates_to ${a.key}`, `duplicated_by ${b.key}`]);

    expect((await link(a.key, 'blocks', b.key)).body).toEqual({ detail: 'These tasks are already linked with blocks.', code: 'relation_exists', extra: { relation: blocks.body.uuid } });
    expect((await link(a.key, 'relates_to', c.key)).body.code).toBe('relation_exists');
    expect((await link(c.key, 'duplicates', b.key)).body.code).toBe('relation_exists');
    expect((await link(a.key, 'blocks', a.key)).body).toEqual({ detail: 'A task cannot be related to itself.', code: 'invalid_relation', extra: { parameter: 'target_task' } });
    expect((await link(a.key, 'follows', b.key)).body).toEqual({ detail: 'relation_type must be one of: blocks, relates_to, duplicates.', code: 'invalid_relation', extra: { parameter: 'relation_type' } });
    // Another organization's task answers as a task that does not exist.
    const other = await t.seedOrganization({ name: 'Elsewhere', beta: true });
    const theirBoard = await createBoard(t, other.adminKey, { key: 'THEIR' });
    const theirs = (await call('POST', `/v1/plan/boards/${theirBoard.board.uuid}/tasks/`, other.adminKey, { title: 'Theirs' })).body;
    const absent = { detail: 'target_task names no task you can see in this organization.', code: 'invalid_relation', extra: { parameter: 'target_task' } };
    expect((await link(a.key, 'blocks', theirs.uuid)).body).toEqual(absent);
    expect((await link(a.key, 'blocks', '0190c8f4-0000-7000-8000-000000000000')).body).toEqual(absent);

    // 50 blocks links each way; the 51st is refused.
    const many = await Promise.all(Array.from({ length: 50 }, () => app.tasks.create(board)));
    for (const task of many.slice(0, 49)) expect((await link(c.key, 'blocks', task.key)).status).toBe(201);
    expect((await link(c.key, 'blocks', many[49].key)).status).toBe(201);
    expect((await link(c.key, 'blocks', a.key)).body).toEqual({ detail: 'This task already blocks 50 tasks.', code: 'invalid_relation', extra: { limit: 50 } });
    for (const task of many.slice(0, 49)) expect((await link(task.key, 'blocks', b.key)).status).toBe(201);
    expect((await link(many[49].key, 'blocks', b.key)).body).toEqual({ detail: 'The target task is already blocked by 50 tasks.', code: 'invalid_relation', extra: { limit: 50 } });

    // Removing a link, from either side.
    const dryUnlink = await call('DELETE', `/v1/plan/tasks/${b.key}/relations/${blocks.body.uuid}/?dry_run=true`, acme.adminKey);
    expect(dryUnlink.status).toBe(200);
    expect(dryUnlink.body).toMatchObject({ dry_run: true, status: 204 });
    expect((await call('DELETE', `/v1/plan/tasks/${b.key}/relations/${blocks.body.uuid}/`, acme.adminKey)).status).toBe(204);
    expect(await sides(a.key)).toEqual([`relates_to ${c.key}`]);
    expect((await call('DELETE', `/v1/plan/tasks/${b.key}/relations/${blocks.body.uuid}/`, acme.adminKey)).status).toBe(404);
  });

  it('refuses a blocks cycle of any length (relation_cycle)', async () => {
    const { call, acme } = app;
    const { board } = await newBoard();
    const tasks = await Promise.all(Array.from({ length: 6 }, () => app.tasks.create(board)));
    const link = (from: number, to: number) => call('POST', `/v1/plan/tasks/${tasks[from].key}/relations/`, acme.adminKey, { relation_type: 'blocks', target_task: tasks[to].key });
    const cycle = { detail: 'This link would make the blocking tasks a cycle: the target already blocks this task, directly or through others.', code: 'relation_cycle' };
    await link(0, 1);
    expect((await link(1, 0)).body).toEqual(cycle);
    await link(1, 2);
    expect((await link(2, 0)).body).toEqual(cycle);
    for (const [from, to] of [[2, 3], [3, 4], [4, 5]]) expect((await link(from, to)).status).toBe(201);
    expect((await link(5, 0)).body).toEqual(cycle);
    expect((await link(5, 3)).body).toEqual(cycle);
    // A diamond is no cycle; relates_to never makes one.
    expect((await link(0, 5)).status).toBe(201);
    expect((await call('POST', `/v1/plan/tasks/${tasks[5].key}/relations/`, acme.adminKey, { relation_type: 'relates_to', target_task: tasks[0].key })).status).toBe(201);
  });

  it('logs the end of links on the other side when a task or its whole board is deleted', async () => {
    const { t, call, acme } = app;
    const { board: doomed } = await newBoard();
    const { board: kept } = await newBoard();
    const [gone, alsoGone] = [await app.tasks.create(doomed), await app.tasks.create(doomed)];
    const stays = await app.tasks.create(kept);
    await call('POST', `/v1/plan/tasks/${gone.key}/relations/`, acme.adminKey, { relation_type: 'blocks', target_task: stays.key });
    await call('POST', `/v1/plan/tasks/${stays.key}/relations/`, acme.adminKey, { relation_type: 'relates_to', target_task: alsoGone.key });
    await call('DELETE', `/v1/plan/tasks/${gone.key}/`, acme.adminKey);
    expect((await call('GET', `/v1/plan/tasks/${stays.key}/relations/`, acme.adminKey)).body.count).toBe(1);
    expect((await call('DELETE', `/v1/plan/boards/${doomed.uuid}/`, acme.adminKey)).status).toBe(204);
    expect((await call('GET', `/v1/plan/tasks/${stays.key}/relations/`, acme.adminKey)).body.count).toBe(0);
    const actions = (await call('GET', `/v1/plan/tasks/${stays.key}/activity/`, acme.adminKey)).body.results.map((a: { action: string }) => a.action);
    expect(actions).toEqual(['task_relation.deleted', 'task_relation.deleted', 'task_relation.created', 'task_relation.created', 'task.created']);
    expect(await t.db('plan_task_search').whereIn('task_uuid', [gone.uuid, alsoGone.uuid]).count({ n: '*' }).then((r) => Number(r[0].n))).toBe(0);
  });

  it('shows a link only when the caller sees the other task\'s board', async () => {
    const { call, acme } = app;
    const { board } = await newBoard();
    const { board: secret } = await newBoard({ visibility: 'members' });
    const open = await app.tasks.create(board, { title: 'Open' });
    const hidden = await app.tasks.create(secret, { title: 'Hidden' });
    await call('POST', `/v1/plan/tasks/${hidden.key}/relations/`, acme.adminKey, { relation_type: 'blocks', target_task: open.key });
    expect((await call('GET', `/v1/plan/tasks/${open.key}/relations/`, acme.adminKey)).body.count).toBe(1);
    expect((await call('GET', `/v1/plan/tasks/${open.key}/relations/`, acme.member.key)).body).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect((await call('POST', `/v1/plan/tasks/${open.key}/relations/`, acme.member.key, { relation_type: 'relates_to', target_task: hidden.key })).body.code).toBe('invalid_relation');
  });
});
