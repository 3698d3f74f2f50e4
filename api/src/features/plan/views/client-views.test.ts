import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { seedPlanOrg, startBoardApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';

const STAMP = '2026-03-10T15:00:00.000Z';

/**
 * The DailyBot client's later view doors: workspace views (`plan views workspace`, `… save`), one view at a time
 * without If-Match, the `kanban` view mode, and views pinned as favorites. Exact answers and refusals.
 */
describe('Plan views as the DailyBot client keeps them: the workspace\'s, kanban, pinned', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  let board: { uuid: string };
  let base: string;
  beforeEach(async () => ({ t, acme, call, board, base } = await startBoardApp('views')));
  afterEach(async () => t.close());

  const workspace = '/v1/plan/views/workspace/';
  const view = (fields: Record<string, unknown>) => ({
    board: null, project: null, scope: 'workspace', kind: 'workspace', filters: {}, sort: [], view_mode: null, group_by: null, sub_group_by: null,
    version: 1, created_at: STAMP, updated_at: STAMP, ...fields,
  });

  it('replaces your workspace views with the array sent, under the list\'s ETag; others see only the shared ones', async () => {
    const empty = await call('GET', workspace, acme.member.key);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ count: 0, next: null, previous: null, results: [] });
    const etag = empty.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);

    const items = [
      { name: 'Everything mine', view_mode: 'kanban', filters: { owner: 'me' } },
      { name: 'Roadmap', view_mode: 'timeline', visibility: 'shared', group_by: 'state' },
    ];
    const without = await call('PUT', workspace, acme.member.key, items);
    expect(without.status).toBe(428);
    expect(without.body.code).toBe('precondition_required');

    const saved = await call('PUT', workspace, acme.member.key, items, { 'if-match': etag });
    expect(saved.status).toBe(200);
    // Shared views first, then personal ones (as a board's list orders them).
    const [roadmap, mine] = saved.body as { uuid: string }[];
    expect(saved.body).toEqual([
      view({ uuid: roadmap.uuid, id: roadmap.uuid, name: 'Roadmap', visibility: 'shared', view_mode: 'timeline', group_by: 'state', owner: acme.member.user.uuid }),
      // kanban is the DailyBot client's name for the board mode.
      view({ uuid: mine.uuid, id: mine.uuid, name: 'Everything mine', visibility: 'personal', filters: { owner: 'me' }, view_mode: 'board', owner: acme.member.user.uuid }),
    ]);
    const newTag = saved.headers.get('etag')!;
    expect(newTag).not.toBe(etag);
    expect((await call('GET', workspace, acme.member.key)).headers.get('etag')).toBe(newTag);

    // The old ETag is stale: a second save made from the first read never drops the first save's views.
    const stale = await call('PUT', workspace, acme.member.key, [], { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('precondition_failed');

    // Someone else sees the shared one, and their own save leaves it alone.
    const other = await call('GET', workspace, acme.other.key);
    expect(other.body.results.map((v: { name: string }) => v.name)).toEqual(['Roadmap']);
    const theirs = await call('PUT', workspace, acme.other.key, [{ name: 'Otto\'s' }], { 'if-match': other.headers.get('etag')! });
    expect(theirs.status).toBe(200);
    expect((await call('GET', workspace, acme.member.key)).body.results.map((v: { name: string }) => v.name).sort()).toEqual(['Everything mine', 'Roadmap']);

    // An item with the uuid of one of your views changes it; the views left out are deleted.
    const kept = await call('PUT', workspace, acme.member.key, [{ uuid: roadmap.uuid, name: 'Roadmap 2', visibility: 'shared' }], { 'if-match': newTag });
    expect(kept.body).toEqual([view({ uuid: roadmap.uuid, id: roadmap.uuid, name: 'Roadmap 2', visibility: 'shared', owner: acme.member.user.uuid, version: 2 })]);
    expect((await call('GET', `/v1/plan/views/${mine.uuid}/`, acme.member.key)).status).toBe(404);
  });

  it('refuses what a workspace view cannot be, and is for people only', async () => {
    const tag = async () => ({ 'if-match': (await call('GET', workspace, acme.member.key)).headers.get('etag')! });
    const defaultView = await call('PUT', workspace, acme.member.key, [{ name: 'x' }, { name: 'y', visibility: 'board_default' }], await tag());
    expect(defaultView.status).toBe(400);
    expect(defaultView.body).toEqual({ '1.visibility': [expect.any(String)] });
    const mode = await call('PUT', workspace, acme.member.key, [{ name: 'x', view_mode: 'gallery' }], await tag());
    expect(mode.status).toBe(400);
    expect(mode.body).toEqual({ detail: 'view_mode must be one of: list, board, table, timeline, calendar (kanban is board).', code: 'invalid_filter_value', extra: { parameter: 'view_mode' } });
    const strangerUuid = await call('PUT', workspace, acme.member.key, [{ uuid: '0190c8f4-0000-7000-8000-000000000000', name: 'x' }], await tag());
    expect(strangerUuid.body).toEqual({ detail: 'Not one of your own views here (or named twice).', code: 'invalid_filter_value', extra: { parameter: '0.uuid' } });
    expect((await call('PUT', workspace, acme.member.key, { name: 'x' }, await tag())).status).toBe(400);
    expect((await call('GET', workspace, acme.member.key)).body.count).toBe(0);

    for (const method of ['GET', 'PUT']) {
      const agent = await call(method, workspace, acme.agentKey, method === 'PUT' ? [] : undefined, { 'if-match': '*' });
      expect(agent.status).toBe(403);
      expect(agent.body.code).toBe('insufficient_scope');
    }
    // Another organization's shared workspace views stay there.
    const globex = await seedPlanOrg(t, { name: 'Globex' });
    await call('PUT', workspace, globex.adminKey, [{ name: 'Theirs', visibility: 'shared' }], { 'if-match': '*' });
    expect((await call('GET', workspace, acme.member.key)).body.count).toBe(0);
  });

  it('saves one view without If-Match (201), takes kanban on creation and change, and pins a view you see', async () => {
    const created = await call('POST', base, acme.member.key, { name: 'Blocked', filters: {}, view_mode: 'kanban', group_by: 'state', sub_group_by: 'none', sort: 'priority', visibility: 'personal' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      uuid: created.body.uuid, id: created.body.uuid, board: board.uuid, project: null, scope: 'board', kind: 'board', name: 'Blocked', visibility: 'personal',
      filters: {}, sort: ['priority'], view_mode: 'board', group_by: 'state', sub_group_by: 'none', owner: acme.member.user.uuid, version: 1, created_at: STAMP, updated_at: STAMP,
    });
    const path = `/v1/plan/views/${created.body.uuid}/`;
    const changed = await call('PATCH', path, acme.member.key, { view_mode: 'calendar' });
    expect(changed.body).toMatchObject({ view_mode: 'calendar', version: 2 });
    expect((await call('PATCH', path, acme.member.key, { view_mode: 'kanban' })).body).toMatchObject({ view_mode: 'board', version: 3 });
    const refused = await call('PATCH', path, acme.member.key, { view_mode: 'Kanban' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_filter_value');

    const pinned = await call('POST', '/v1/plan/me/favorites/', acme.member.key, { target_type: 'view', target_uuid: created.body.uuid });
    expect(pinned.status).toBe(201);
    expect(pinned.body).toEqual({
      uuid: pinned.body.uuid, id: pinned.body.uuid, object_type: 'view', object_uuid: created.body.uuid, target_type: 'view', target_uuid: created.body.uuid, rank: 1,
      object: { uuid: created.body.uuid, name: 'Blocked', key: null, board: board.uuid }, created_at: STAMP,
    });
    // Someone else's personal view is absent: it cannot be pinned.
    expect((await call('POST', '/v1/plan/me/favorites/', acme.other.key, { target_type: 'view', target_uuid: created.body.uuid })).body).toEqual({ detail: 'Not found.', code: 'not_found' });
    // A deleted view drops out of the pins.
    expect((await call('DELETE', path, acme.member.key)).status).toBe(204);
    expect((await call('GET', '/v1/plan/me/favorites/', acme.member.key)).body.count).toBe(0);
  });
});
