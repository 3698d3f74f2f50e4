import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { countRows, startBoardApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';

describe('Plan saved views (spec: visibility personal | shared | board_default; ETag and If-Match; 428, 412, view_visibility_forbidden, view_limit_reached)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  let board: { uuid: string };
  let base: string;
  beforeEach(async () => ({ t, acme, call, board, base } = await startBoardApp('views')));
  afterEach(async () => t.close());

  const ifMatch = (etag: string) => ({ 'if-match': etag });
  const listTag = async (key: string) => (await call('GET', base, key)).headers.get('etag')!;

  it('checks the list ETag atomically: 20 creations at once with one ETag make one view (201) and 19 × 412; so do deletions with one view ETag', async () => {
    const etag = await listTag(acme.adminKey);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call('POST', base, acme.adminKey, { name: `Shared ${i}`, visibility: 'shared' }, ifMatch(etag))),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(19).fill(412)]);
    expect(answers.filter((a) => a.status === 412).every((a) => a.body.code === 'precondition_failed')).toBe(true);
    expect(await countRows(t, 'plan_views')).toBe(1);
    const view = answers.find((a) => a.status === 201)!;
    const deletions = await Promise.all(Array.from({ length: 5 }, () => call('DELETE', `/v1/plan/views/${view.body.uuid}/`, acme.adminKey, undefined, ifMatch(view.headers.get('etag')!))));
    expect(deletions.map((a) => a.status).sort()).toEqual([204, 404, 404, 404, 404]);
  });

  it('round-trips ETags: GET answers one, writes need it (428 without, 412 when stale), 304 for a current copy', async () => {
    const list = await call('GET', base, acme.member.key);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ count: 0, next: null, previous: null, results: [] });
    const listEtag = list.headers.get('etag')!;
    expect(listEtag).toMatch(/^"[0-9a-f]{32}"$/);

    const body = { name: 'My open bugs', visibility: 'personal', filters: { label: ['0190c8f4-0000-7000-8000-000000000001'], owner: 'me' }, sort: '-priority' };
    // A creation may come without If-Match (the DailyBot client sends none); one with a stale ETag is refused below.
    const created = await call('POST', base, acme.member.key, body, ifMatch(listEtag));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      uuid: created.body.uuid, id: created.body.uuid, board: board.uuid, project: null, name: 'My open bugs', visibility: 'personal',
      filters: body.filters, sort: ['-priority'], view_mode: null, group_by: null, sub_group_by: null, kind: 'board', scope: 'board', owner: acme.member.user.uuid, version: 1,
      created_at: '2026-03-10T15:00:00.000Z', updated_at: '2026-03-10T15:00:00.000Z',
    });
    const etag = created.headers.get('etag')!;
    expect(created.headers.get('location')).toBe(`/v1/plan/views/${created.body.uuid}/`);
    // The list changed, so its old ETag is stale for the next creation.
    const stale = await call('POST', base, acme.member.key, { ...body, name: 'Another' }, ifMatch(listEtag));
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ detail: expect.any(String), code: 'precondition_failed' });

    const path = `/v1/plan/views/${created.body.uuid}/`;
    const read = await call('GET', path, acme.member.key);
    expect(read.headers.get('etag')).toBe(etag);
    const notModified = await t.request('GET', path, { key: acme.member.key, headers: { 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');

    expect((await call('PUT', path, acme.member.key, { name: 'Bugs', visibility: 'personal' })).status).toBe(428);
    expect((await call('PATCH', path, acme.member.key, { name: 'Bugs' }, ifMatch('W/' + etag))).status).toBe(412);
    const renamed = await call('PATCH', path, acme.member.key, { name: 'Bugs' }, ifMatch(etag));
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Bugs', version: 2, filters: body.filters, sort: ['-priority'] });
    const etag2 = renamed.headers.get('etag')!;
    expect(etag2).not.toBe(etag);
    // Someone who read version 1 cannot overwrite version 2.
    expect((await call('PUT', path, acme.member.key, { name: 'Old', visibility: 'personal' }, ifMatch(etag))).status).toBe(412);
    const replaced = await call('PUT', path, acme.member.key, { name: 'All mine', visibility: 'personal' }, ifMatch(`"x", ${etag2}`));
    expect(replaced.body).toMatchObject({ name: 'All mine', filters: {}, sort: [], version: 3 });
    expect((await call('DELETE', path, acme.member.key, undefined, ifMatch(etag2))).status).toBe(412);
    expect((await call('DELETE', `${path}?dry_run=true`, acme.member.key, undefined, ifMatch(replaced.headers.get('etag')!))).body).toMatchObject({ dry_run: true, status: 204 });
    expect((await call('DELETE', path, acme.member.key, undefined, ifMatch(replaced.headers.get('etag')!))).status).toBe(204);
    expect((await call('GET', path, acme.member.key)).status).toBe(404);

    // PATCH and DELETE check If-Match when it is sent; the DailyBot client sends none, and its calls go through.
    const plain = await call('POST', base, acme.member.key, { name: 'Plain', visibility: 'personal' }, ifMatch('*'));
    const plainPath = `/v1/plan/views/${plain.body.uuid}/`;
    expect((await call('PATCH', plainPath, acme.member.key, { name: 'Plainer', view_mode: 'board', group_by: 'state' })).body).toMatchObject({ name: 'Plainer', view_mode: 'board', group_by: 'state', version: 2 });
    expect((await call('DELETE', plainPath, acme.member.key)).status).toBe(204);
  });

  it('keeps personal views to their owner; only board managers make, edit or delete shared and default ones', async () => {
    const mine = await call('POST', base, acme.member.key, { name: 'Mine', visibility: 'personal' }, ifMatch('*'));
    expect(mine.status).toBe(201);
    // Someone else's personal view is absent for everyone else, admins included.
    expect((await call('GET', `/v1/plan/views/${mine.body.uuid}/`, acme.other.key)).status).toBe(404);
    expect((await call('GET', `/v1/plan/views/${mine.body.uuid}/`, acme.adminKey)).status).toBe(404);
    expect((await call('GET', base, acme.other.key)).body.count).toBe(0);

    // A member: 403 before any precondition is looked at.
    const refused = await call('POST', base, acme.member.key, { name: 'Team', visibility: 'shared' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: expect.any(String), code: 'view_visibility_forbidden' });
    expect((await call('PATCH', `/v1/plan/views/${mine.body.uuid}/`, acme.member.key, { visibility: 'shared' }, ifMatch('*'))).body.code).toBe('view_visibility_forbidden');

    const team = await call('POST', base, acme.adminKey, { name: 'Team', visibility: 'shared' }, ifMatch(await listTag(acme.adminKey)));
    expect(team.status).toBe(201);
    const teamPath = `/v1/plan/views/${team.body.uuid}/`;
    expect((await call('GET', teamPath, acme.other.key)).body.name).toBe('Team');
    expect((await call('PATCH', teamPath, acme.other.key, { name: 'Mine now' }, ifMatch(team.headers.get('etag')!))).body.code).toBe('view_visibility_forbidden');
    expect((await call('DELETE', teamPath, acme.other.key, undefined, ifMatch(team.headers.get('etag')!))).body.code).toBe('view_visibility_forbidden');

    // A board manager who is not an admin may.
    await call('POST', `/v1/plan/boards/${board.uuid}/members/`, acme.adminKey, { user: acme.other.user.uuid, role: 'manager' });
    const first = await call('POST', base, acme.other.key, { name: 'Default', visibility: 'board_default' }, ifMatch('*'));
    expect(first.status).toBe(201);
    // A new default makes the previous one shared.
    const second = await call('POST', base, acme.adminKey, { name: 'Better default', visibility: 'board_default' }, ifMatch('*'));
    const list = await call('GET', base, acme.member.key);
    expect(list.body.results.map((v: { name: string; visibility: string }) => `${v.visibility}:${v.name}`)).toEqual([
      'board_default:Better default', 'shared:Default', 'shared:Team', 'personal:Mine',
    ]);
    expect((await call('GET', `/v1/plan/views/${first.body.uuid}/`, acme.member.key)).body.version).toBe(2);
    // Shared and default views are on the board's change stream; personal ones are not.
    expect(await countRows(t, 'plan_changes', (q) => q.where({ object_kind: 'view', board_uuid: board.uuid }))).toBe(4);
    expect(await countRows(t, 'plan_changes', (q) => q.where({ object_uuid: mine.body.uuid }))).toBe(0);
    expect(second.status).toBe(201);
  });

  it('refuses a 21st personal view on a board (view_limit_reached, extra.limit 20); other boards and people count apart', async () => {
    for (let i = 0; i < 20; i++) {
      expect((await call('POST', base, acme.member.key, { name: `View ${i}`, visibility: 'personal' }, ifMatch('*'))).status).toBe(201);
    }
    const over = await call('POST', base, acme.member.key, { name: 'One more', visibility: 'personal' }, ifMatch('*'));
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ detail: expect.any(String), code: 'view_limit_reached', extra: { limit: 20 } });
    expect((await call('POST', base, acme.other.key, { name: 'Otto', visibility: 'personal' }, ifMatch('*'))).status).toBe(201);
    // A shared view made personal counts too.
    const shared = await call('POST', base, acme.adminKey, { name: 'Shared', visibility: 'shared' }, ifMatch('*'));
    for (let i = 0; i < 20; i++) await call('POST', base, acme.adminKey, { name: `A${i}`, visibility: 'personal' }, ifMatch('*'));
    const toPersonal = await call('PATCH', `/v1/plan/views/${shared.body.uuid}/`, acme.adminKey, { visibility: 'personal' }, ifMatch('*'));
    expect(toPersonal.body.code).toBe('view_limit_reached');
  });

  it('answers 403 insufficient_scope to agent keys for personal views, and shows them only shared ones', async () => {
    await call('POST', base, acme.member.key, { name: 'Mine', visibility: 'personal' }, ifMatch('*'));
    await call('POST', base, acme.adminKey, { name: 'Team', visibility: 'shared' }, ifMatch('*'));
    const agent = await call('POST', base, acme.agentKey, { name: 'Bot view', visibility: 'personal' }, ifMatch('*'));
    expect(agent.status).toBe(403);
    expect(agent.body.code).toBe('insufficient_scope');
    expect((await call('GET', base, acme.agentKey)).body.results.map((v: { name: string }) => v.name)).toEqual(['Team']);
  });

  it('validates the body, hides invisible boards, serves project views, and replays the ETag under an Idempotency-Key', async () => {
    expect((await call('POST', base, acme.member.key, { name: 'x', visibility: 'public' }, ifMatch('*'))).body).toEqual({ visibility: [expect.any(String)] });
    expect((await call('POST', base, acme.member.key, { name: 'x', visibility: 'personal', filters: { 'Bad Name': 1 } }, ifMatch('*'))).body).toEqual({ filters: [expect.stringContaining('not a filter name')] });
    expect((await call('POST', base, acme.member.key, { name: 'x', visibility: 'personal', filters: [1] }, ifMatch('*'))).body).toEqual({ filters: [expect.any(String)] });
    expect((await call('POST', base, acme.member.key, { name: 'x', visibility: 'personal', sort: ['a', 'b', 'c', 'd', 'e', 'f'] }, ifMatch('*'))).body).toEqual({ sort: [expect.any(String)] });
    expect((await call('POST', base, acme.member.key, { name: 'x', visibility: 'personal', color: 'red' }, ifMatch('*'))).body.code).toBe('unknown_field');

    const secret = await call('POST', '/v1/plan/boards/', acme.adminKey, { name: 'Secret', key: 'SEC', visibility: 'members' });
    expect((await call('GET', `/v1/plan/boards/${secret.body.uuid}/views/`, acme.member.key)).status).toBe(404);
    expect((await call('POST', `/v1/plan/boards/${secret.body.uuid}/views/`, acme.member.key, { name: 'x', visibility: 'personal' }, ifMatch('*'))).status).toBe(404);

    const project = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' });
    const projectViews = `/v1/plan/projects/${project.body.uuid}/views/`;
    const headers = { 'if-match': (await call('GET', projectViews, acme.member.key)).headers.get('etag')!, 'idempotency-key': 'view-create-0001' };
    const created = await call('POST', projectViews, acme.member.key, { name: 'Launch work', visibility: 'personal' }, headers);
    expect(created.body).toMatchObject({ project: project.body.uuid, board: null });
    const replay = await call('POST', projectViews, acme.member.key, { name: 'Launch work', visibility: 'personal' }, headers);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.headers.get('etag')).toBe(created.headers.get('etag'));
    expect(await countRows(t, 'plan_views')).toBe(1);
  });
});
