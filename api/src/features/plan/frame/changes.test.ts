import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { countRows, createBoard, dumpPlanTables, insertTask, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
import { lookupCredential } from '../../../auth/credentials.ts';
import { sha256Hex } from '../../../lib/secrets.ts';
import { createSubscription } from '../../webhooks/service.ts';
import { readJson } from '../../../lib/json.ts';

describe('The change log: one row per Plan change, in the change\'s transaction', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  beforeEach(async () => ({ t, acme, call } = await startPlanApp()));
  afterEach(async () => t.close());

  const rows = (where: Record<string, unknown> = {}) => t.db('plan_changes').where(where).orderBy('id');

  it('numbers a board\'s changes on the board\'s stream and organization-level ones on the organization\'s', async () => {
    const { board } = await createBoard(t, acme.adminKey);
    const onBoard = await rows({ board_uuid: board.uuid });
    expect(onBoard.map((r) => [Number(r.seq), r.object_kind, r.change_kind])).toEqual([
      [1, 'board', 'created'],
      [2, 'board_member', 'created'],
      [3, 'state', 'created'], [4, 'state', 'created'], [5, 'state', 'created'], [6, 'state', 'created'], [7, 'state', 'created'],
    ]);
    // The snapshot is the object as the API presents it.
    expect(readJson(onBoard[0].snapshot, null)).toEqual((await call('GET', `/v1/plan/boards/${board.uuid}/`, acme.adminKey)).body);
    expect(onBoard[0]).toMatchObject({ organization_uuid: acme.org.uuid, actor_uuid: acme.admin.uuid, credential_uuid: acme.adminKeyUuid, agent_name: null });

    const goal = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Grow' });
    const project = await call('POST', '/v1/plan/projects/', acme.member.key, { name: 'Launch', goal: goal.body.uuid });
    const org = await t.db('plan_changes').whereNull('board_uuid').orderBy('id');
    expect(org.map((r) => [Number(r.seq), r.object_kind, r.change_kind, r.project_uuid])).toEqual([
      [1, 'goal', 'created', null],
      [2, 'project', 'created', project.body.uuid],
      [3, 'project_member', 'created', project.body.uuid],
    ]);
    await call('PATCH', `/v1/plan/boards/${board.uuid}/`, acme.adminKey, { name: 'Platform team', key: 'PLT' });
    const updated = (await rows({ board_uuid: board.uuid })).at(-1)!;
    expect([Number(updated.seq), updated.change_kind, readJson(updated.changed_fields, [])]).toEqual([8, 'updated', ['name', 'key']]);
  });

  it('keeps a board\'s sequence gap-free and in commit order under concurrent writers', async () => {
    const { board } = await createBoard(t, acme.adminKey);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => call('POST', `/v1/plan/boards/${board.uuid}/labels/`, acme.adminKey, { name: `label ${i}` })));
    expect(results.every((r) => r.status === 201)).toBe(true);
    const seqs = (await rows({ board_uuid: board.uuid })).map((r) => Number(r.seq));
    expect(seqs).toEqual(Array.from({ length: 27 }, (_, i) => i + 1));
  });

  it('writes no row for a change that is rolled back, and leaves the database as it was', async () => {
    // A board whose only default-capable column is Todo: archiving Todo into Done moves its tasks (two changes
    // recorded), then finds no column to be the default and refuses: everything is rolled back.
    const { board, states } = await createBoard(t, acme.adminKey);
    for (const name of ['Backlog', 'In Progress']) {
      expect((await call('POST', `/v1/plan/boards/${board.uuid}/states/${states[name]}/archive/`, acme.adminKey, {})).status).toBe(200);
    }
    await insertTask(t, board, states.Todo);
    await insertTask(t, board, states.Todo);
    const before = await dumpPlanTables(t);
    const refused = await call('POST', `/v1/plan/boards/${board.uuid}/states/${states.Todo}/archive/`, acme.adminKey, { migrate_to: states.Done });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: 'The board would have no default column (a live backlog, todo or in-progress state) for new tasks; create one first.', code: 'board_not_initialized' });
    expect(await dumpPlanTables(t)).toBe(before);
  });

  it('records task changes as tasks.* organization events through the outbox, in the same transaction', async () => {
    const admin = await lookupCredential(t.db, { kind: 'api_key', hash: sha256Hex(acme.adminKey) }, t.clock.now());
    if (!admin.ok) throw new Error('no admin');
    await createSubscription(t.db, t.deps.secretBox, { allowPrivate: true }, admin.actor, { hook_url: 'https://127.0.0.1:9/events', subscriptions: ['tasks.*'] }, t.clock.now());
    const { board, states } = await createBoard(t, acme.adminKey);
    const task = await insertTask(t, board, states.Todo);
    await call('POST', `/v1/plan/boards/${board.uuid}/states/${states.Todo}/archive/`, acme.adminKey, { migrate_to: states['In Progress'] }, { 'x-service-agent-name': 'planner' });
    const events = await t.db('organization_events').where({ event: 'tasks.moved' });
    expect(events).toHaveLength(1);
    expect(readJson<Record<string, unknown>>(events[0].payload, {})).toMatchObject({
      object_uuid: task, board_uuid: board.uuid, changed_fields: ['state', 'rank'], agent_name: 'planner', actor: { uuid: acme.admin.uuid },
      task: { uuid: task, key: 'PLAT-1', state: states['In Progress'], version: 2 },
    });
    // Other kinds are not organization events.
    expect(await countRows(t, 'organization_events', (q) => q.where('event', 'like', 'tasks.%'))).toBe(1);
  });
});
