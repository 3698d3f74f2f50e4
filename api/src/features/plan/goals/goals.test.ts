import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { seedPlanOrg, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';

describe('Plan goals (CONTRACT §9; spec goal_name_conflict)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  beforeEach(async () => ({ t, acme, call } = await startPlanApp()));
  afterEach(async () => t.close());

  it('creates, reads, updates and lists goals', async () => {
    const goal = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Grow revenue', description: 'By 20 %' });
    expect(goal.status).toBe(201);
    expect(goal.body).toEqual({
      uuid: goal.body.uuid, id: goal.body.uuid, name: 'Grow revenue', description: 'By 20 %', period_start: null, period_end: null, status: null, created_by: acme.member.user.uuid,
      archived_at: null, is_archived: false, created_at: '2026-03-10T15:00:00.000Z', updated_at: '2026-03-10T15:00:00.000Z',
    });
    expect((await call('GET', `/v1/plan/goals/${goal.body.uuid}/`, acme.other.key)).body.name).toBe('Grow revenue');
    expect((await call('PATCH', `/v1/plan/goals/${goal.body.uuid}/`, acme.other.key, { description: 'By 25 %' })).body.description).toBe('By 25 %');
    expect((await call('GET', '/v1/plan/goals/?search=reve', acme.other.key)).body.count).toBe(1);
    const globex = await seedPlanOrg(t, { name: 'Globex' });
    expect((await call('GET', `/v1/plan/goals/${goal.body.uuid}/`, globex.adminKey)).body).toEqual({ detail: 'Not found.', code: 'not_found' });
  });

  it('answers 409 goal_name_conflict against live goals only (case-insensitively); restoring checks again', async () => {
    const goal = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Grow' });
    const conflict = await call('POST', '/v1/plan/goals/', acme.member.key, { name: ' grow ' });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ detail: 'A live goal already has this name.', code: 'goal_name_conflict' });
    const other = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Shrink' });
    expect((await call('PATCH', `/v1/plan/goals/${other.body.uuid}/`, acme.member.key, { name: 'GROW' })).body.code).toBe('goal_name_conflict');

    expect((await call('POST', `/v1/plan/goals/${goal.body.uuid}/archive/`, acme.member.key, {})).body.is_archived).toBe(true);
    const reused = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Grow' });
    expect(reused.status).toBe(201);
    expect((await call('POST', `/v1/plan/goals/${goal.body.uuid}/restore/`, acme.member.key, {})).body.code).toBe('goal_name_conflict');
    await call('DELETE', `/v1/plan/goals/${reused.body.uuid}/`, acme.adminKey);
    expect((await call('POST', `/v1/plan/goals/${goal.body.uuid}/restore/`, acme.member.key, {})).body.is_archived).toBe(false);
  });

  it('links and unlinks projects; lists only the projects the caller sees; deleting the goal unlinks them', async () => {
    const goal = await call('POST', '/v1/plan/goals/', acme.adminKey, { name: 'Grow' });
    const open = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Open' });
    const secret = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Secret', visibility: 'members' });
    const link = (project: string) => call('POST', `/v1/plan/goals/${goal.body.uuid}/projects/`, acme.adminKey, { project });
    expect((await link(open.body.uuid)).body).toMatchObject({ uuid: open.body.uuid, goal: goal.body.uuid });
    expect((await link(secret.body.uuid)).status).toBe(200);
    expect((await call('GET', `/v1/plan/goals/${goal.body.uuid}/projects/`, acme.adminKey)).body.count).toBe(2);
    expect((await call('GET', `/v1/plan/goals/${goal.body.uuid}/projects/`, acme.member.key)).body.results.map((p: { name: string }) => p.name)).toEqual(['Open']);
    // A project the caller cannot see cannot be linked by them either.
    expect((await call('POST', `/v1/plan/goals/${goal.body.uuid}/projects/`, acme.member.key, { project: secret.body.uuid })).body).toEqual({ project: ['No project with this id.'] });

    const dry = await t.request('DELETE', `/v1/plan/goals/${goal.body.uuid}/projects/${open.body.uuid}/?dry_run=true`, { key: acme.adminKey, example: true });
    expect(dry.body).toEqual({
      dry_run: true, status: 204, result: { unlinked: { goal: goal.body.uuid, project: open.body.uuid } },
      changes: [{ object_kind: 'project', object_uuid: open.body.uuid, change_kind: 'updated', changed_fields: ['goal'] }],
    });
    expect((await call('GET', `/v1/plan/projects/${open.body.uuid}/`, acme.adminKey)).body.goal).toBe(goal.body.uuid);
    expect((await call('DELETE', `/v1/plan/goals/${goal.body.uuid}/projects/${open.body.uuid}/`, acme.adminKey)).status).toBe(204);
    expect((await call('GET', `/v1/plan/projects/${open.body.uuid}/`, acme.adminKey)).body.goal).toBeNull();
    expect((await call('DELETE', `/v1/plan/goals/${goal.body.uuid}/projects/${open.body.uuid}/`, acme.adminKey)).status).toBe(404);

    const changesOfSecret = () => t.db('plan_changes').where({ object_uuid: secret.body.uuid }).orderBy('id');
    const before = (await changesOfSecret()).length;
    const removed = await call('DELETE', `/v1/plan/goals/${goal.body.uuid}/?dry_run=true`, acme.adminKey);
    expect(removed.body.result).toEqual({ deleted: { object_kind: 'goal', uuid: goal.body.uuid, name: 'Grow' }, unlinked_projects: 1, attachments: 0 });
    expect((await call('DELETE', `/v1/plan/goals/${goal.body.uuid}/`, acme.adminKey)).status).toBe(204);
    expect((await call('GET', `/v1/plan/projects/${secret.body.uuid}/`, acme.adminKey)).body.goal).toBeNull();
    const after = await changesOfSecret();
    expect(after).toHaveLength(before + 1);
    const last = after.at(-1)!;
    expect([last.change_kind, last.changed_fields, JSON.parse(last.snapshot!).goal]).toEqual(['updated', '["goal"]', null]);
  });
});
