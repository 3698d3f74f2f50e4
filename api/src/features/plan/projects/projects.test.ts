import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { countRows, createBoard, insertTask, seedPlanOrg, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
import { MISSING } from '../../../../test/people-fixtures.ts';

describe('Plan projects, members, milestones and updates (CONTRACT §9; spec project_name_conflict, update_body_too_long, update_not_author)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  beforeEach(async () => ({ t, acme, call } = await startPlanApp()));
  afterEach(async () => t.close());

  it('creates a project (its creator manages it), reads, updates and lists it', async () => {
    const goal = await call('POST', '/v1/plan/goals/', acme.adminKey, { name: 'Grow' });
    const project = await call('POST', '/v1/plan/projects/', acme.member.key, { name: 'Launch', description: 'v2', goal: goal.body.uuid });
    expect(project.status).toBe(201);
    expect(project.body).toEqual({
      uuid: project.body.uuid, id: project.body.uuid, name: 'Launch', description: 'v2', goal: goal.body.uuid, visibility: 'org', start_date: null, target_date: null, health: null,
      created_by: acme.member.user.uuid, position: 'a0',
      archived_at: null, is_archived: false, created_at: '2026-03-10T15:00:00.000Z', updated_at: '2026-03-10T15:00:00.000Z',
    });
    expect((await call('GET', `/v1/plan/projects/${project.body.uuid}/members/`, acme.other.key)).body.results.map((m: { role: string }) => m.role)).toEqual(['manager']);
    expect((await call('PATCH', `/v1/plan/projects/${project.body.uuid}/`, acme.other.key, { name: 'Mine' })).body).toEqual({ detail: 'Only a manager of this project or an organization admin can do this.', code: 'project_manager_required' });
    expect((await call('PATCH', `/v1/plan/projects/${project.body.uuid}/`, acme.member.key, { goal: null, description: 'v3' })).body).toMatchObject({ goal: null, description: 'v3' });
    expect((await call('PATCH', `/v1/plan/projects/${project.body.uuid}/`, acme.member.key, { goal: MISSING })).body).toEqual({ goal: ['No goal with this id.'] });
    expect((await call('GET', `/v1/plan/projects/?goal=${goal.body.uuid}`, acme.other.key)).body.count).toBe(0);
    expect((await call('GET', '/v1/plan/projects/?member=me', acme.member.key)).body.count).toBe(1);
    expect((await call('GET', '/v1/plan/projects/?member=me', acme.other.key)).body.count).toBe(0);
    expect((await call('POST', `/v1/plan/projects/${project.body.uuid}/archive/`, acme.member.key, {})).body).toMatchObject({ is_archived: true, archived_at: '2026-03-10T15:00:00.000Z' });
    const restored = await t.request('POST', `/v1/plan/projects/${project.body.uuid}/restore/`, { key: acme.member.key, body: {}, example: true });
    expect([restored.status, restored.body]).toEqual([200, expect.objectContaining({ name: 'Launch', is_archived: false, archived_at: null })]);
  });

  it('answers 409 project_name_conflict against live and archived projects; a deleted project frees its name', async () => {
    const first = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' });
    const conflict = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'LAUNCH ' });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ detail: 'A live or archived project already has this name.', code: 'project_name_conflict' });
    await call('POST', `/v1/plan/projects/${first.body.uuid}/archive/`, acme.adminKey, {});
    expect((await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' })).body.code).toBe('project_name_conflict');
    const second = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Landing' });
    expect((await call('PATCH', `/v1/plan/projects/${second.body.uuid}/`, acme.adminKey, { name: 'launch' })).body.code).toBe('project_name_conflict');
    expect((await call('DELETE', `/v1/plan/projects/${first.body.uuid}/`, acme.adminKey)).status).toBe(204);
    expect((await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' })).status).toBe(201);
  });

  it('holds the plan ceiling: 1 live project on the starter plans (402 task_projects_limit_reached)', async () => {
    const basic = await seedPlanOrg(t, { name: 'Basic', plan: 'basic' });
    const token = await t.seedToken(basic.org.uuid, basic.admin.uuid);
    const first = await t.request('POST', '/v1/plan/projects/', { token, body: { name: 'One' } });
    expect(first.status).toBe(201);
    const refused = await t.request('POST', '/v1/plan/projects/', { token, body: { name: 'Two' } });
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ detail: 'Your plan allows 1 live projects; archive one or upgrade.', code: 'task_projects_limit_reached', extra: { limit: 1, current: 1 } });
    await t.request('POST', `/v1/plan/projects/${first.body.uuid}/archive/`, { token, body: {} });
    expect((await t.request('POST', '/v1/plan/projects/', { token, body: { name: 'Two' } })).status).toBe(201);
    expect((await t.request('POST', `/v1/plan/projects/${first.body.uuid}/restore/`, { token, body: {} })).body.code).toBe('task_projects_limit_reached');
  });

  it('hides a members-only project (404 like an absent one); its last member stays (409 last_grant_cannot_be_removed)', async () => {
    const secret = await call('POST', '/v1/plan/projects/', acme.member.key, { name: 'Secret', visibility: 'members' });
    for (const path of ['', 'members/', 'milestones/', 'updates/', 'mentionables/']) {
      const hidden = await call('GET', `/v1/plan/projects/${secret.body.uuid}/${path}`, acme.other.key);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual((await call('GET', `/v1/plan/projects/${MISSING}/${path}`, acme.other.key)).body);
    }
    expect((await call('GET', '/v1/plan/projects/', acme.other.key)).body.count).toBe(0);
    expect((await call('GET', `/v1/plan/projects/${secret.body.uuid}/`, acme.adminKey)).status).toBe(200);
    const last = await call('DELETE', `/v1/plan/projects/${secret.body.uuid}/members/${acme.member.user.uuid}/`, acme.member.key);
    expect(last.status).toBe(409);
    expect(last.body).toEqual({ detail: 'This is the last member of a members-only project; add someone else first, or make it visible to the organization.', code: 'last_grant_cannot_be_removed' });
    expect((await call('POST', `/v1/plan/projects/${secret.body.uuid}/members/`, acme.member.key, { user: acme.other.user.uuid })).status).toBe(201);
    const promoted = await t.request('PATCH', `/v1/plan/projects/${secret.body.uuid}/members/${acme.other.user.uuid}/`, { key: acme.member.key, body: { role: 'manager' }, example: true });
    expect([promoted.status, promoted.body]).toEqual([200, expect.objectContaining({ role: 'manager' })]);
    expect((await call('GET', `/v1/plan/projects/${secret.body.uuid}/`, acme.other.key)).status).toBe(200);
    const dry = await t.request('DELETE', `/v1/plan/projects/${secret.body.uuid}/members/${acme.member.user.uuid}/?dry_run=true`, { key: acme.member.key, example: true });
    const membership = (await t.db('plan_project_members').where({ project_uuid: secret.body.uuid, user_uuid: acme.member.user.uuid }).first('uuid'))!;
    expect(dry.body).toEqual({
      dry_run: true, status: 204, result: { deleted: { object_kind: 'project_member', uuid: membership.uuid, user: acme.member.user.uuid } },
      changes: [{ object_kind: 'project_member', object_uuid: membership.uuid, change_kind: 'deleted', changed_fields: [] }],
    });
    expect((await call('DELETE', `/v1/plan/projects/${secret.body.uuid}/members/${acme.member.user.uuid}/`, acme.member.key)).status).toBe(204);
    expect((await call('GET', `/v1/plan/projects/${secret.body.uuid}/mentionables/`, acme.adminKey)).body.results.map((p: { full_name: string }) => p.full_name)).toEqual(['Ada Admin', 'Bot Member', 'Otto Member']);
  });

  it('manages milestones (project managers) with dates that exist', async () => {
    const project = await call('POST', '/v1/plan/projects/', acme.member.key, { name: 'Launch' });
    const base = `/v1/plan/projects/${project.body.uuid}/milestones/`;
    const beta = await call('POST', base, acme.member.key, { name: 'Beta', target_date: '2026-04-01' });
    expect(beta.status).toBe(201);
    expect(beta.body).toEqual({
      uuid: beta.body.uuid, id: beta.body.uuid, project: project.body.uuid, name: 'Beta', description: '', target_date: '2026-04-01', date: '2026-04-01', completed_at: null, archived_at: null,
      created_at: '2026-03-10T15:00:00.000Z', updated_at: '2026-03-10T15:00:00.000Z',
    });
    await call('POST', base, acme.member.key, { name: 'Someday' });
    await call('POST', base, acme.member.key, { name: 'Alpha', target_date: '2026-03-15' });
    expect((await call('GET', base, acme.other.key)).body.results.map((m: { name: string }) => m.name)).toEqual(['Alpha', 'Beta', 'Someday']);
    for (const target_date of ['2026-02-30', '2026-4-1', 'tomorrow']) {
      expect((await call('POST', base, acme.member.key, { name: 'Bad', target_date })).status).toBe(400);
    }
    expect((await call('POST', base, acme.member.key, { name: 'Bad', target_date: '2026-02-30' })).body).toEqual({ target_date: ['Must be a date as YYYY-MM-DD.'] });
    expect((await call('POST', base, acme.other.key, { name: 'Mine' })).body.code).toBe('project_manager_required');
    expect((await call('PATCH', `${base}${beta.body.uuid}/`, acme.member.key, { target_date: null })).body.target_date).toBeNull();
    const one = await t.request('GET', `${base}${beta.body.uuid}/`, { key: acme.other.key, example: true });
    expect([one.status, one.body]).toEqual([200, { ...beta.body, target_date: null, date: null }]);

    const { board, states } = await createBoard(t, acme.adminKey, { project: project.body.uuid });
    const task = await insertTask(t, board, states.Todo);
    await t.db('plan_tasks').where({ uuid: task }).update({ milestone_uuid: beta.body.uuid });
    // DELETE retires the milestone (the DailyBot client's delete_milestone): it stays, archived, with its tasks.
    const dry = await t.request('DELETE', `${base}${beta.body.uuid}/?dry_run=true`, { key: acme.member.key, example: true });
    const retired = { ...beta.body, target_date: null, date: null, archived_at: '2026-03-10T15:00:00.000Z' };
    expect(dry.body).toEqual({
      dry_run: true, status: 200, result: retired,
      changes: [{ object_kind: 'milestone', object_uuid: beta.body.uuid, change_kind: 'updated', changed_fields: ['archived_at'] }],
    });
    expect((await call('GET', `${base}${beta.body.uuid}/`, acme.member.key)).body.archived_at).toBeNull();
    const removed = await call('DELETE', `${base}${beta.body.uuid}/`, acme.member.key);
    expect([removed.status, removed.body]).toEqual([200, retired]);
    expect((await call('DELETE', `${base}${beta.body.uuid}/`, acme.member.key)).body).toEqual(retired);
    expect(await t.db('plan_tasks').where({ uuid: task }).first('milestone_uuid')).toEqual({ milestone_uuid: beta.body.uuid });
    expect((await call('GET', base, acme.other.key)).body.results.map((m: { name: string }) => m.name)).toEqual(['Alpha', 'Beta', 'Someday']);
    expect((await call('POST', `${base}${beta.body.uuid}/restore/`, acme.member.key)).body.archived_at).toBeNull();
    expect((await call('DELETE', `${base}${beta.body.uuid}/`, acme.other.key)).body.code).toBe('project_manager_required');
  });

  it('posts updates up to 20,000 characters (400 update_body_too_long past it); only the author edits; the author or an admin deletes', async () => {
    const project = await call('POST', '/v1/plan/projects/', acme.member.key, { name: 'Launch' });
    const base = `/v1/plan/projects/${project.body.uuid}/updates/`;
    const full = await call('POST', base, acme.other.key, { body: '🚀'.repeat(20_000), health: 'on_track' });
    expect(full.status).toBe(201);
    const long = await call('POST', base, acme.other.key, { body: 'x'.repeat(20_001) });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ detail: 'A project update has at most 20000 characters; this one has 20001.', code: 'update_body_too_long', extra: { max_length: 20_000 } });
    expect((await call('PATCH', `${base}${full.body.uuid}/`, acme.other.key, { body: 'y'.repeat(20_001) })).body.code).toBe('update_body_too_long');

    t.clock.advance(60_000);
    const second = await call('POST', base, acme.member.key, { body: 'Second.', health: 'at_risk' });
    expect(second.body).toMatchObject({ body: 'Second.', health: 'at_risk', author: { uuid: acme.member.user.uuid, full_name: 'Mia Member' }, agent_name: null, edited_at: null });
    expect((await call('GET', base, acme.adminKey)).body.results.map((u: { uuid: string }) => u.uuid)).toEqual([second.body.uuid, full.body.uuid]);

    const notAuthor = await call('PATCH', `${base}${second.body.uuid}/`, acme.adminKey, { body: 'Edited by admin' });
    expect(notAuthor.status).toBe(403);
    expect(notAuthor.body).toEqual({ detail: 'Only the author of a project update can edit it.', code: 'update_not_author' });
    expect((await call('PATCH', `${base}${second.body.uuid}/`, acme.member.key, { body: 'Edited.' })).body).toMatchObject({ body: 'Edited.', edited_at: '2026-03-10T15:01:00.000Z' });
    const one = await t.request('GET', `${base}${second.body.uuid}/`, { key: acme.other.key, example: true });
    expect([one.status, one.body]).toEqual([200, expect.objectContaining({ uuid: second.body.uuid, body: 'Edited.', health: 'at_risk', edited_at: '2026-03-10T15:01:00.000Z' })]);
    expect((await call('DELETE', `${base}${second.body.uuid}/`, acme.other.key)).body).toEqual({ detail: 'Only the author of a project update or an organization admin can delete it.', code: 'update_not_author' });
    const dry = await t.request('DELETE', `${base}${second.body.uuid}/?dry_run=true`, { key: acme.adminKey, example: true });
    expect(dry.body).toEqual({
      dry_run: true, status: 204, result: { deleted: { object_kind: 'project_update', uuid: second.body.uuid } },
      changes: [{ object_kind: 'project_update', object_uuid: second.body.uuid, change_kind: 'deleted', changed_fields: [] }],
    });
    expect((await call('DELETE', `${base}${second.body.uuid}/`, acme.adminKey)).status).toBe(204);
    expect((await call('DELETE', `${base}${full.body.uuid}/`, acme.other.key)).status).toBe(204);
  });

  it('deletes a project with its members, milestones and updates; its boards stay, detached', async () => {
    const project = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' });
    await call('POST', `/v1/plan/projects/${project.body.uuid}/milestones/`, acme.adminKey, { name: 'Beta' });
    await call('POST', `/v1/plan/projects/${project.body.uuid}/updates/`, acme.adminKey, { body: 'Go.' });
    const { board } = await createBoard(t, acme.adminKey, { project: project.body.uuid });
    const dry = await call('DELETE', `/v1/plan/projects/${project.body.uuid}/?dry_run=true`, acme.adminKey);
    expect(dry.body.result).toEqual({ deleted: { object_kind: 'project', uuid: project.body.uuid, name: 'Launch' }, cascade: { members: 1, milestones: 1, updates: 1, boards_detached: 1, tasks_detached: 0, attachments: 0 } });
    expect((await call('DELETE', `/v1/plan/projects/${project.body.uuid}/`, acme.adminKey)).status).toBe(204);
    expect((await call('GET', `/v1/plan/boards/${board.uuid}/`, acme.adminKey)).body.project).toBeNull();
    expect(await countRows(t, 'plan_milestones')).toBe(0);
  });
});
