import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { createBoard, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';

describe('Plan grouped task board (GET /v1/plan/tasks/board/, the DailyBot client\'s `tasks board`)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  beforeEach(async () => ({ t, acme, call } = await startPlanApp()));
  afterEach(async () => t.close());

  const path = '/v1/plan/tasks/board/';
  type Cell = { key: string; count: number; tasks: { title: string }[]; next_offset: number | null };
  const held = (groups: Cell[]) => groups.filter((g) => g.count > 0).map((g) => `${g.key}:${g.count}:${g.tasks.map((task) => task.title).join('+')}:${g.next_offset}`);

  it('lays the tasks the list filters keep out by column, a window per cell, and a task with two labels in both', async () => {
    const { board } = await createBoard(t, acme.adminKey);
    const ops = await call('POST', '/v1/plan/labels/', acme.adminKey, { name: 'ops' });
    const bug = await call('POST', `/v1/plan/boards/${board.uuid}/labels/`, acme.adminKey, { name: 'bug' });
    for (const [title, priority, labels] of [['A', 1, [ops.body.uuid, bug.body.uuid]], ['B', 1, [bug.body.uuid]], ['C', 3, []]] as const) {
      expect((await call('POST', '/v1/plan/tasks/', acme.adminKey, { board: board.uuid, title, priority, labels })).status).toBe(201);
    }
    const byPriority = await t.request('GET', `${path}?group_by=priority&tasks_per_group=1`, { key: acme.member.key });
    expect(byPriority.status).toBe(200);
    expect(byPriority.body).toMatchObject({ group_by: 'priority', sub_group_by: 'none', total: 3, tasks_per_group: 1, offset: 0 });
    expect(held(byPriority.body.groups)).toEqual(['1:2:A:1', '3:1:C:null']);
    // The next window of one cell.
    const deeper = await call('GET', `${path}?group_by=priority&tasks_per_group=1&offset=1&group=1`, acme.member.key);
    expect(held(deeper.body.groups)).toEqual(['1:2:B:null']);
    const byLabel = await call('GET', `${path}?group_by=label`, acme.member.key);
    expect(byLabel.body.groups.map((g: Cell & { name: string }) => `${g.name}:${g.count}`).sort()).toEqual(['No label:1', 'bug:2', 'ops:1'].sort());
    // Swimlanes: each column's cells are its lanes.
    const lanes = await call('GET', `${path}?group_by=priority&sub_group_by=label`, acme.member.key);
    const urgent = lanes.body.groups.find((g: { key: string }) => g.key === '1');
    expect(urgent.lanes.map((l: Cell) => `${l.key === bug.body.uuid ? 'bug' : l.key === ops.body.uuid ? 'ops' : l.key}:${l.count}`).sort()).toEqual(['bug:2', 'ops:1']);
    // Bad values answer 400 with their codes; another organization sees none of it.
    expect((await call('GET', `${path}?group_by=colour`, acme.member.key)).body).toMatchObject({ code: 'invalid_filter_value', extra: { parameter: 'group_by' } });
    expect((await call('GET', `${path}?lane=1`, acme.member.key)).body).toMatchObject({ code: 'invalid_filter_value', extra: { parameter: 'lane' } });
    expect((await call('GET', `${path}?tasks_per_group=0`, acme.member.key)).status).toBe(400);
    const globex = await t.seedOrganization({ name: 'Globex', plan: 'pro', beta: true });
    expect((await call('GET', path, globex.adminKey)).body.total).toBe(0);
  });
});
