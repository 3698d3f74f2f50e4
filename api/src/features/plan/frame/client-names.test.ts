import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { PNG, encodeForm, form } from '../../../../test/files.ts';
import { NO_CEILINGS } from '../../../../test/task-fixtures.ts';
import { createBoard, planClient, seedPlanOrg } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
import { startTestApp } from '../../../../test/harness.ts';
import { issueKey } from '../../api-keys/service.ts';

/**
 * The DailyBot command-line client's names and doors beside ours: each alias reaches the same service, each new
 * door answers the spec's codes. (test/dailybot-client.test.ts makes every call of the client in a session.)
 */
describe('Plan: the DailyBot client\'s names, headers and doors', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  let board: { uuid: string; key: string };
  let states: Record<string, string>;
  let project: string;
  beforeAll(async () => {
    t = await startTestApp(NO_CEILINGS);
    acme = await seedPlanOrg(t);
    call = planClient(t);
    ({ board, states } = await createBoard(t, acme.adminKey));
    project = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' })).body.uuid;
  });
  afterAll(async () => t.close());

  const ex = (method: string, path: string, key: string, body?: unknown, headers?: Record<string, string>) => t.request(method, path, { key, body, headers, example: true });
  const task = async (title = 'A task') => (await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title })).body;

  it('takes the client\'s field names as aliases of ours, and refuses both with different values', async () => {
    const member = await ex('POST', `/v1/plan/projects/${project}/members/`, acme.adminKey, { user_uuid: acme.member.user.uuid });
    expect([member.status, member.body.user.uuid]).toEqual([201, acme.member.user.uuid]);
    const both = await call('POST', `/v1/plan/boards/${board.uuid}/members/`, acme.adminKey, { user: acme.member.user.uuid, user_uuid: acme.other.user.uuid });
    expect([both.status, both.body]).toEqual([400, { detail: 'user_uuid and user are the same field: send one of them.', code: 'invalid_filter_value', extra: { parameter: 'user_uuid' } }]);
    expect((await call('POST', `/v1/plan/boards/${board.uuid}/members/`, acme.adminKey, {})).body).toEqual({ user_uuid: ['This field is required.'] });

    const label = (await call('POST', `/v1/plan/boards/${board.uuid}/labels/`, acme.adminKey, { name: 'bug' })).body.uuid;
    const a = await task();
    const labelled = await ex('POST', `/v1/plan/tasks/${a.key}/labels/batch/`, acme.adminKey, { mode: 'add', label_uuids: [label] });
    expect(JSON.stringify(labelled.body.labels)).toContain(label);
    const comment = (await call('POST', `/v1/plan/tasks/${a.key}/comments/`, acme.adminKey, { body: 'First' })).body.uuid;
    expect((await call('POST', `/v1/plan/tasks/${a.key}/comments/`, acme.adminKey, { body: 'Reply', parent_comment: comment })).body.parent).toBe(comment);
    const pin = await call('POST', '/v1/plan/me/favorites/', acme.member.key, { target_type: 'board', target_uuid: board.uuid });
    expect([pin.status, pin.body.object_type]).toEqual([201, 'board']);
    const milestone = await call('POST', `/v1/plan/projects/${project}/milestones/`, acme.adminKey, { name: 'Beta', date: '2026-04-15' });
    expect(milestone.body).toMatchObject({ target_date: '2026-04-15', date: '2026-04-15' });

    const p = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Mobile', start_date: '2026-03-01', target_date: '2026-06-30', health: 'on_track' });
    expect(p.body).toMatchObject({ start_date: '2026-03-01', target_date: '2026-06-30', health: 'on_track' });
    expect((await call('PATCH', `/v1/plan/projects/${p.body.uuid}/`, acme.adminKey, { health: 'sideways' })).status).toBe(400);
    const g = await call('POST', '/v1/plan/goals/', acme.adminKey, { name: 'Grow', period_start: '2026-01-01', period_end: '2026-06-30', status: 'at_risk' });
    expect(g.body).toMatchObject({ period_start: '2026-01-01', period_end: '2026-06-30', status: 'at_risk' });
    const reversed = await call('PATCH', `/v1/plan/goals/${g.body.uuid}/`, acme.adminKey, { period_end: '2025-12-31' });
    expect([reversed.status, reversed.body.code, reversed.body.extra]).toEqual([400, 'invalid_filter_value', { parameter: 'period_end' }]);
  });

  it('records the agent named by X-Dailybot-Agent-Name or by a JSON body\'s agent_name, as by X-Service-Agent-Name', async () => {
    const a = await task();
    await call('PATCH', `/v1/plan/tasks/${a.key}/`, acme.adminKey, { priority: 2, agent_name: 'Release bot' });
    await call('POST', `/v1/plan/tasks/${a.key}/archive/`, acme.adminKey, undefined, { 'x-dailybot-agent-name': 'Night%20bot' });
    const activity = (await call('GET', `/v1/plan/tasks/${a.key}/activity/`, acme.adminKey)).body.results.map((e: { agent_name: string | null }) => e.agent_name);
    expect(activity.slice(0, 2)).toEqual(['Night bot', 'Release bot']);
    const bad = await call('PATCH', `/v1/plan/tasks/${a.key}/`, acme.adminKey, { priority: 3, agent_name: 'x'.repeat(129) });
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_agent_attribution']);
  });

  it('answers agent and organization keys 403 insufficient_scope with extra.required_scope on structure changes', async () => {
    const org = (await issueKey(t.db, { organizationUuid: acme.org.uuid, ownerUuid: acme.admin.uuid, kind: 'organization', name: 'org' }, t.clock.now())).secret;
    for (const key of [acme.agentKey, org]) {
      for (const [method, path, body] of [
        ['POST', '/v1/plan/boards/', { name: 'X', key: 'XX' }], ['POST', '/v1/plan/projects/', { name: 'X' }], ['POST', '/v1/plan/goals/', { name: 'X' }],
        ['POST', `/v1/plan/boards/${board.uuid}/states/`, { name: 'X', category: 'todo' }], ['POST', `/v1/plan/boards/${board.uuid}/members/`, { user_uuid: acme.member.user.uuid }],
      ] as const) {
        const res = await call(method, path, key, body);
        expect([res.status, res.body.code, res.body.extra], `${method} ${path}`).toEqual([403, 'insufficient_scope', { required_scope: 'tasks:admin' }]);
      }
      expect((await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, key, { title: 'Agents still write tasks' })).status).toBe(201);
    }
  });

  it('bulk: a dry run needs no key; create on board; the client\'s operation names', async () => {
    const a = await task();
    const dry = await call('POST', '/v1/plan/tasks/bulk/?dry_run=true', acme.adminKey, { operation: 'set_priority', items: [{ task: a.key, priority: 1 }] });
    expect(dry.body).toMatchObject({ dry_run: true, status: 200, result: { operation: 'update', succeeded: 1 } });
    const made = await ex('POST', '/v1/plan/tasks/bulk/', acme.adminKey, { operation: 'create', board: board.uuid, items: [{ title: 'One' }, { title: '' }] }, { 'idempotency-key': 'bulk-create-0001' });
    expect(made.body).toMatchObject({ operation: 'create', succeeded: 1, failed: 1, results: [{ index: 0, status: 200, task: { title: 'One' } }, { index: 1, status: 400 }] });
    const noBoard = await call('POST', '/v1/plan/tasks/bulk/', acme.adminKey, { operation: 'create', items: [{ title: 'One' }] }, { 'idempotency-key': 'bulk-create-0002' });
    expect(noBoard.body).toEqual({ board: ['This field is required.'] });
  });

  it('labels by their uuid alone; routes at notification-routes/ in the client\'s shape, tested and with their deliveries', async () => {
    const label = (await call('POST', `/v1/plan/boards/${board.uuid}/labels/`, acme.adminKey, { name: 'docs' })).body.uuid;
    expect((await ex('GET', `/v1/plan/labels/${label}/`, acme.member.key)).body.name).toBe('docs');
    expect((await ex('PATCH', `/v1/plan/labels/${label}/`, acme.adminKey, { color: '#112233' })).body.color).toBe('#112233');
    const globex = await seedPlanOrg(t, { name: 'Globex' });
    expect((await call('GET', `/v1/plan/labels/${label}/`, globex.adminKey)).body).toEqual({ detail: 'Not found.', code: 'not_found' });
    expect((await ex('DELETE', `/v1/plan/labels/${label}/?dry_run=true`, acme.adminKey)).body).toMatchObject({ dry_run: true, status: 204 });
    expect((await ex('DELETE', `/v1/plan/labels/${label}/`, acme.adminKey)).status).toBe(204);

    const route = await ex('POST', '/v1/plan/notification-routes/', acme.adminKey, { name: 'Mail', channel: { type: 'email' }, kinds: ['task.assigned'], enabled: true });
    expect([route.status, route.body]).toMatchObject([201, { name: 'Mail', kind: 'task.assigned', kinds: ['task.assigned'], channel: 'email', enabled: true }]);
    expect((await call('POST', '/v1/plan/notification-routes/', acme.adminKey, { channel: 'email', kinds: ['task.assigned', 'task.due'] })).body).toEqual({ kinds: ['A route sends one kind: make one route per kind.'] });
    expect((await call('POST', '/v1/plan/notification-routes/', acme.adminKey, { channel: { id: '' }, kind: 'task.assigned' })).status).toBe(400);
    const r = route.body.uuid;
    expect((await ex('GET', `/v1/plan/notification-routes/${r}/`, acme.member.key)).body.uuid).toBe(r);
    const dry = await call('POST', `/v1/plan/notification-routes/${r}/send-test/?dry_run=true`, acme.adminKey);
    expect(dry.body).toMatchObject({ dry_run: true, result: { route: r, channel: 'email', deliveries: 1 } });
    expect((await ex('POST', `/v1/plan/notification-routes/${r}/send-test/`, acme.adminKey)).body).toMatchObject({ route: r, deliveries: 1 });
    // The same doors under our path.
    expect((await ex('POST', `/v1/plan/notifications/routes/${r}/send-test/`, acme.adminKey)).body.deliveries).toBe(1);
    expect((await ex('GET', `/v1/plan/notifications/routes/${r}/deliveries/`, acme.adminKey)).body.count).toBe(2);
    const sent = await ex('GET', `/v1/plan/notification-routes/${r}/deliveries/?page_size=1`, acme.adminKey);
    expect(sent.body.results.map((d: { channel: string; destination: string }) => `${d.channel} ${d.destination}`)).toEqual([`email ${acme.admin.email}`]);
    // Turned off, it sends nothing.
    await ex('PATCH', `/v1/plan/notification-routes/${r}/`, acme.adminKey, { enabled: false });
    await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: 'Quiet', owner: acme.member.user.uuid });
    expect((await call('GET', `/v1/plan/notification-routes/${r}/deliveries/`, acme.adminKey)).body.count).toBe(2);
    expect((await ex('DELETE', `/v1/plan/notification-routes/${r}/?dry_run=true`, acme.adminKey)).body).toMatchObject({ dry_run: true, status: 204 });
    expect((await ex('DELETE', `/v1/plan/notification-routes/${r}/`, acme.adminKey)).status).toBe(204);
  });

  it('reports: recipients by user uuid, send-test (run) with a dry run, and their runs', async () => {
    const report = await call('POST', '/v1/plan/reports/', acme.adminKey, { name: 'Daily', kind: 'daily', email_recipients: [acme.member.user.uuid] });
    expect(report.body.email_recipients).toEqual([acme.member.user.email]);
    expect((await call('POST', '/v1/plan/reports/', acme.adminKey, { name: 'X', kind: 'daily', email_recipients: ['0190c8f4-0000-7000-8000-000000000000'] })).body.code).toBe('invalid_schedule');
    const r = report.body.uuid;
    expect((await call('POST', `/v1/plan/reports/${r}/send-test/?dry_run=true`, acme.adminKey)).body).toMatchObject({ dry_run: true, result: { deliveries: 1 } });
    expect((await ex('GET', `/v1/plan/reports/${r}/runs/`, acme.adminKey)).body.count).toBe(0);
    expect((await ex('POST', `/v1/plan/reports/${r}/send-test/`, acme.adminKey)).body.deliveries).toBe(1);
    const runs = await ex('GET', `/v1/plan/reports/${r}/runs/`, acme.member.key);
    expect(runs.body.results).toEqual([{ uuid: expect.any(String), id: expect.any(String), report: r, trigger: 'manual', status: 'enqueued', deliveries: 1, ran_at: t.clock.now().toISOString() }]);
  });

  it('milestones: completed, reopened, retired and back; the organization-wide list; the updates digest', async () => {
    const base = `/v1/plan/projects/${project}/milestones/`;
    const m = (await call('POST', base, acme.adminKey, { name: 'GA', date: '2026-05-01' })).body.uuid;
    expect((await call('POST', `${base}${m}/complete/?dry_run=true`, acme.adminKey)).body).toMatchObject({ dry_run: true, result: { completed_at: t.clock.now().toISOString() } });
    expect((await ex('POST', `${base}${m}/complete/`, acme.adminKey)).body.completed_at).toBe(t.clock.now().toISOString());
    expect((await ex('POST', `${base}${m}/reopen/`, acme.adminKey)).body.completed_at).toBeNull();
    expect((await ex('POST', `${base}${m}/archive/`, acme.adminKey)).body.archived_at).toBe(t.clock.now().toISOString());
    const all = await ex('GET', '/v1/plan/milestones/', acme.member.key);
    expect(all.body.results.map((x: { uuid: string }) => x.uuid)).not.toContain(m);
    expect((await call('GET', '/v1/plan/milestones/?include_archived=true', acme.member.key)).body.results.map((x: { uuid: string }) => x.uuid)).toContain(m);
    expect((await ex('POST', `${base}${m}/restore/`, acme.adminKey)).body.archived_at).toBeNull();
    expect((await call('POST', `${base}${m}/complete/`, acme.member.key)).body.code).toBe('project_manager_required');

    await call('POST', `/v1/plan/projects/${project}/updates/`, acme.adminKey, { body: 'Beta is out' });
    const secret = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Secret', visibility: 'members' })).body.uuid;
    await call('POST', `/v1/plan/projects/${secret}/updates/`, acme.adminKey, { body: 'Hush' });
    const digest = await ex('GET', '/v1/plan/projects/updates/', acme.member.key);
    expect(digest.body.results.map((u: { body: string }) => u.body)).toEqual(['Beta is out']);
  });

  it('files: task multipart with a caption, renames, milestones and boards, resolve, and presign to the content path', async () => {
    const a = await task();
    const upload = async (path: string, fields: Record<string, string> = {}) => {
      const { raw, contentType } = await encodeForm(form({ name: 'shot.png', type: 'image/png', bytes: PNG }, fields));
      return t.request('POST', path, { key: acme.adminKey, raw, headers: { 'content-type': contentType }, example: true });
    };
    const file = await upload(`/v1/plan/tasks/${a.key}/attachments/`, { caption: 'The login screen' });
    expect([file.status, file.body.caption, file.body.object_type]).toEqual([201, 'The login screen', 'task']);
    const renamed = await ex('PATCH', `/v1/plan/tasks/${a.key}/attachments/${file.body.uuid}/`, acme.adminKey, { filename: 'login.png', caption: '' });
    expect(renamed.body).toMatchObject({ filename: 'login.png', caption: null });
    expect((await call('PATCH', `/v1/plan/tasks/${a.key}/attachments/${file.body.uuid}/`, acme.member.key, { filename: 'mine.png' })).body.code).toBe('attachment_delete_forbidden');
    const m = (await call('POST', `/v1/plan/projects/${project}/milestones/`, acme.adminKey, { name: 'RC' })).body.uuid;
    const onMilestone = await upload(`/v1/plan/projects/${project}/milestones/${m}/attachments/`);
    expect(onMilestone.body.object_type).toBe('milestone');
    const onBoard = await upload(`/v1/plan/boards/${board.uuid}/attachments/`);
    expect(onBoard.body.object_type).toBe('board');
    for (const [path, made] of [[`/v1/plan/projects/${project}/milestones/${m}/attachments/`, onMilestone], [`/v1/plan/boards/${board.uuid}/attachments/`, onBoard]] as const) {
      expect((await ex('GET', path, acme.member.key)).body.count).toBe(1);
      expect((await ex('GET', `${path}${made.body.uuid}/`, acme.member.key)).body.uuid).toBe(made.body.uuid);
      expect((await ex('GET', `${path}${made.body.uuid}/content/`, acme.member.key)).status).toBe(200);
      expect((await ex('PATCH', `${path}${made.body.uuid}/`, acme.adminKey, { caption: 'Where it stands' })).body.caption).toBe('Where it stands');
    }
    const missing = '0190c8f4-0000-7000-8000-000000000000';
    const resolved = await ex('GET', `/v1/plan/attachments/resolve/?ids=${file.body.uuid},${onBoard.body.uuid},${missing}`, acme.member.key);
    expect(resolved.body.results.map((x: { uuid: string; url: string }) => x.url)).toEqual([
      `${t.url}/v1/plan/tasks/${a.uuid}/attachments/${file.body.uuid}/content/`, `${t.url}/v1/plan/boards/${board.uuid}/attachments/${onBoard.body.uuid}/content/`,
    ]);
    expect(resolved.body.missing).toEqual([missing]);
    for (const path of [`/v1/plan/boards/${board.uuid}/attachments/${onBoard.body.uuid}/`, `/v1/plan/projects/${project}/milestones/${m}/attachments/${onMilestone.body.uuid}/`]) {
      expect((await ex('DELETE', `${path}?dry_run=true`, acme.adminKey)).body).toMatchObject({ dry_run: true, status: 204 });
      expect((await ex('DELETE', path, acme.adminKey)).status).toBe(204);
    }
    expect((await call('GET', '/v1/plan/attachments/resolve/?ids=nope', acme.member.key)).body.code).toBe('invalid_filter_value');

    // Presign, then POST the bytes to the task's content path (the client's other method), then confirm.
    const presigned = (await call('POST', `/v1/plan/tasks/${a.key}/attachments/presign/`, acme.adminKey, { filename: 'b.png', content_type: 'image/png', size: PNG.length })).body;
    const url = new URL(presigned.upload_url);
    expect(url.pathname).toBe(`/v1/plan/tasks/${a.uuid}/attachments/${presigned.attachment_uuid}/content/`);
    const put = await t.request('POST', `${url.pathname}${url.search}`, { raw: PNG, headers: { 'content-type': 'image/png' }, example: true });
    expect(put.body).toMatchObject({ attachment_uuid: presigned.attachment_uuid, status: 'uploaded', size: PNG.length });
    expect((await call('POST', `/v1/plan/tasks/${a.key}/attachments/${presigned.attachment_uuid}/confirm/`, acme.adminKey)).body.status).toBe('ready');
  });

  it('views as an array, subscriptions by POST and DELETE, watchers and mutes, include, and delta by time', async () => {
    const list = `/v1/plan/boards/${board.uuid}/views/`;
    const etag = (await call('GET', list, acme.member.key)).headers.get('etag')!;
    expect((await call('PUT', list, acme.member.key, [{ name: 'Mine' }])).body.code).toBe('precondition_required');
    const saved = await ex('PUT', list, acme.member.key, [{ name: 'Mine', view_mode: 'board', group_by: 'state' }, { name: 'Bugs', filters: { priority: 1 } }], { 'if-match': etag });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.map((v: { name: string; view_mode: string | null }) => `${v.name} ${v.view_mode}`)).toEqual(['Bugs null', 'Mine board']);
    const mine = saved.body.find((v: { name: string }) => v.name === 'Mine').uuid;
    const again = await call('PUT', list, acme.member.key, [{ uuid: mine, name: 'Mine', view_mode: 'list' }], { 'if-match': saved.headers.get('etag')! });
    expect(again.body.map((v: { uuid: string; view_mode: string }) => `${v.uuid} ${v.view_mode}`)).toEqual([`${mine} list`]);
    expect((await call('PUT', list, acme.member.key, [{ name: 'Stale' }], { 'if-match': etag })).body.code).toBe('precondition_failed');
    expect((await call('PUT', list, acme.member.key, { name: 'Not a list' }, { 'if-match': '*' })).body).toEqual({ non_field_errors: ['Expected a JSON array.'] });

    const a = await task();
    expect((await ex('POST', `/v1/plan/tasks/${a.key}/subscription/`, acme.member.key)).body).toMatchObject({ subscribed: true, reason: 'manual' });
    expect((await ex('DELETE', `/v1/plan/tasks/${a.key}/subscription/`, acme.member.key)).body).toMatchObject({ subscribed: false });
    const watcher = await call('POST', `/v1/plan/tasks/${a.key}/participants/`, acme.adminKey, { user_uuid: acme.member.user.uuid, role: 'watcher' });
    expect(watcher.status).toBe(200);
    expect((await call('GET', `/v1/plan/tasks/${a.key}/subscription/`, acme.member.key)).body.subscribed).toBe(true);
    // A watcher is listed among the participants (role watcher) and comes off with DELETE, as the client's docstrings say.
    expect((await call('GET', `/v1/plan/tasks/${a.key}/participants/`, acme.adminKey)).body.results.map((p: { role: string }) => p.role)).toEqual(['watcher']);
    const mute = await call('POST', `/v1/plan/tasks/${a.key}/participants/`, acme.adminKey, { user_uuid: acme.member.user.uuid, is_muted: true });
    expect([mute.status, mute.body.extra]).toEqual([400, { parameter: 'is_muted' }]);
    expect((await call('POST', `/v1/plan/tasks/${a.key}/participants/`, acme.member.key, { user_uuid: acme.member.user.uuid, is_muted: true })).status).toBe(201);
    expect((await call('GET', `/v1/plan/tasks/${a.key}/subscription/`, acme.member.key)).body.subscribed).toBe(false);

    await call('POST', `/v1/plan/tasks/${a.key}/comments/`, acme.adminKey, { body: 'Hello' });
    const child = await call('POST', `/v1/plan/tasks/${a.key}/children/`, acme.adminKey, { title: 'Child' });
    // The client's own include list: every embed is a list envelope; the whole ones never have a next page.
    const detail = await ex('GET', `/v1/plan/tasks/${a.key}/?include=relations,participants,attachments,comments,activity,children,comment_count`, acme.adminKey);
    expect(detail.body).toMatchObject({
      comment_count: 1, comments: { count: 1, next: null, previous: null }, attachments: { count: 0, results: [] }, activity: { next: null },
      participants: { count: 1, next: null, previous: null, results: [acme.member.user.uuid] },
      relations: { count: 0, next: null, previous: null, results: [] },
      children: { count: 1, next: null, previous: null, results: [child.body.uuid] },
    });
    // Without include, no embed; the lists keep plain arrays.
    expect(Object.keys((await call('GET', `/v1/plan/tasks/${a.key}/`, acme.adminKey)).body)).not.toContain('participants');
    const listed = await call('GET', `/v1/plan/boards/${board.uuid}/tasks/?include=participants,children&sort=key`, acme.adminKey);
    expect(listed.body.results.find((r: { key: string }) => r.key === a.key)).toMatchObject({ participants: [acme.member.user.uuid], children: [child.body.uuid] });
    expect((await call('GET', `/v1/plan/tasks/${a.key}/?include=everything`, acme.adminKey)).body.detail).toBe(
      'include takes archived, participants, relations, children, attachments, comments, activity, comment_count; not everything.',
    );

    const since = t.clock.now().toISOString();
    t.clock.advance(1_000);
    await call('PATCH', `/v1/plan/tasks/${a.key}/`, acme.adminKey, { title: 'Renamed' });
    const delta = await ex('GET', `/v1/plan/boards/${board.uuid}/delta/?updated_since=${since}`, acme.adminKey);
    expect(delta.body.results.map((c: { object_kind: string; change_kind: string }) => `${c.object_kind} ${c.change_kind}`)).toEqual(['task updated']);
    const old = await call('GET', `/v1/plan/boards/${board.uuid}/delta/?updated_since=2026-03-01T00:00:00Z`, acme.adminKey);
    expect([old.status, old.body.code, old.body.extra]).toEqual([400, 'delta_window_expired', { full_resync_required: true }]);
    void states;
  });

  it('answers every 429 with a numeric Retry-After', async () => {
    const tight = await startTestApp({ planMinuteLimits: { reads: 1, writes: 1, bulk: 1, delta: 1 } });
    const org = await seedPlanOrg(tight);
    await tight.request('GET', '/v1/plan/goals/', { key: org.adminKey });
    const refused = await tight.request('GET', '/v1/plan/goals/', { key: org.adminKey });
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '60']);
    await tight.close();
  });
});
