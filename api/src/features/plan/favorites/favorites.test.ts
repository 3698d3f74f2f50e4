import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { createBoard, insertTask, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';

describe('Plan favorites (spec: {object_type: task | board | project, object_uuid}; 50, favorite_limit_reached)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  const path = '/v1/plan/me/favorites/';
  beforeEach(async () => ({ t, acme, call } = await startPlanApp()));
  afterEach(async () => t.close());

  it('adds tasks, boards and projects the caller sees; the same one twice answers 200 with the first', async () => {
    const { board, states } = await createBoard(t, acme.adminKey);
    const project = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' });
    const task = await insertTask(t, board, states.Todo);
    const added = await call('POST', path, acme.member.key, { object_type: 'task', object_uuid: task });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      uuid: added.body.uuid, id: added.body.uuid, object_type: 'task', object_uuid: task, target_type: 'task', target_uuid: task, rank: 1,
      object: { uuid: task, name: 'Task 1', key: 'PLAT-1', board: board.uuid }, created_at: '2026-03-10T15:00:00.000Z',
    });
    const again = await call('POST', path, acme.member.key, { object_type: 'task', object_uuid: task.toUpperCase() });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(added.body);
    t.clock.advance(1000);
    await call('POST', path, acme.member.key, { object_type: 'board', object_uuid: board.uuid });
    t.clock.advance(1000);
    await call('POST', path, acme.member.key, { object_type: 'project', object_uuid: project.body.uuid });
    const list = await call('GET', path, acme.member.key);
    expect(list.body.results.map((f: { object_type: string; object: { name: string; key: string | null } }) => `${f.object_type} ${f.object.name} ${f.object.key}`)).toEqual([
      'project Launch null', 'board Platform PLAT', 'task Task 1 PLAT-1',
    ]);
    expect((await call('GET', path, acme.other.key)).body.count).toBe(0);
    expect((await call('DELETE', `${path}${added.body.uuid}/`, acme.other.key)).status).toBe(404);
    expect((await call('DELETE', `${path}${added.body.uuid}/?dry_run=true`, acme.member.key)).body).toMatchObject({ dry_run: true, status: 204 });
    expect((await call('DELETE', `${path}${added.body.uuid}/`, acme.member.key)).status).toBe(204);
    expect((await call('GET', path, acme.member.key)).body.count).toBe(2);
  });

  it('answers 404 for an object absent or invisible, and leaves out favorites no longer visible', async () => {
    const secret = await createBoard(t, acme.adminKey, { key: 'SEC', visibility: 'members' });
    const task = await insertTask(t, secret.board, secret.states.Todo);
    for (const [object_type, object_uuid] of [['board', secret.board.uuid], ['task', task], ['project', '0190c8f4-0000-7000-8000-000000000000']]) {
      const refused = await call('POST', path, acme.member.key, { object_type, object_uuid });
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
    expect((await call('POST', path, acme.member.key, { object_type: 'goal', object_uuid: task })).body).toEqual({ object_type: [expect.any(String)] });
    await call('POST', `/v1/plan/boards/${secret.board.uuid}/members/`, acme.adminKey, { user: acme.member.user.uuid });
    expect((await call('POST', path, acme.member.key, { object_type: 'task', object_uuid: task })).status).toBe(201);
    const member = (await call('GET', `/v1/plan/boards/${secret.board.uuid}/members/`, acme.adminKey)).body.results.find((m: { user: { uuid: string } }) => m.user.uuid === acme.member.user.uuid);
    expect(member).toBeDefined();
    await call('DELETE', `/v1/plan/boards/${secret.board.uuid}/members/${acme.member.user.uuid}/`, acme.adminKey);
    expect((await call('GET', path, acme.member.key)).body.count).toBe(0);
  });

  it('refuses a 51st favorite (favorite_limit_reached, extra.limit 50); deleted objects stop counting', async () => {
    const { board, states } = await createBoard(t, acme.adminKey);
    const tasks: string[] = [];
    for (let i = 0; i < 51; i++) tasks.push(await insertTask(t, board, states.Todo));
    for (const task of tasks.slice(0, 50)) expect((await call('POST', path, acme.member.key, { object_type: 'task', object_uuid: task })).status).toBe(201);
    const over = await call('POST', path, acme.member.key, { object_type: 'task', object_uuid: tasks[50] });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ detail: expect.any(String), code: 'favorite_limit_reached', extra: { limit: 50 } });
    await t.db('plan_tasks').where({ uuid: tasks[0] }).delete();
    expect((await call('POST', path, acme.member.key, { object_type: 'task', object_uuid: tasks[50] })).status).toBe(201);
  }, 60_000);

  it('is for people: agent keys get 403 insufficient_scope', async () => {
    for (const [method, body] of [['GET', undefined], ['POST', { object_type: 'board', object_uuid: '0190c8f4-0000-7000-8000-000000000000' }]] as const) {
      const refused = await call(method, path, acme.agentKey, body);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('insufficient_scope');
    }
  });
});
