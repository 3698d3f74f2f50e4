import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import type { startHttpsReceiver, startSmtpSink } from '../../../../test/receivers.ts';
import { countRows, createBoard, insertTask, planClient, seedPlanOrg, startChatAndMailApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
import { notify } from './notify.ts';
import type { Notice } from './notify.ts';

describe('Plan notifications: routes, notify(), the inbox (spec: notification_routes_limit_reached, unknown_notification_kind, channel_not_found, route_scope_not_org_visible)', () => {
  let t: TestApp;
  let rx: Awaited<ReturnType<typeof startHttpsReceiver>>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let acme: PlanOrg;
  let call: PlanCall;
  const routes = '/v1/plan/notifications/routes/';
  let app: Awaited<ReturnType<typeof startChatAndMailApp>>;
  beforeAll(async () => {
    app = await startChatAndMailApp([{ id: 'C1', name: 'eng' }, { id: 'G2', name: 'leads', is_private: true }]);
    ({ t, rx, sink } = app);
  });
  afterAll(async () => app.close());
  beforeEach(async () => {
    acme = await seedPlanOrg(t, { name: `Acme ${Math.random()}` });
    call = planClient(t);
    rx.received.length = 0;
    sink.messages.length = 0;
  });

  const connectSlack = () => call('PATCH', '/v1/organization/', acme.adminKey, { platform: { kind: 'slack', bot_token: 'xoxb-test-token' } });
  const mention = (board: { uuid: string }, task: string, recipients: string[]): Notice => ({
    kind: 'task.mentioned',
    organizationUuid: acme.org.uuid,
    recipients,
    subject: { type: 'task', uuid: task, board: board.uuid, project: null, title: 'Fix login', key: 'PLAT-1' },
    actor: { uuid: acme.admin.uuid },
    agentName: 'Triage bot',
    text: 'Ada mentioned you: "@Mia can you look?"',
    data: { comment: 'c1' },
  });

  it('checks a route at its edges: kind, channel, platform, scope, and 10 per organization', async () => {
    const noPlatform = await call('POST', routes, acme.member.key, { kind: 'task.created', channel: 'C1' });
    expect(noPlatform.status).toBe(400);
    expect(noPlatform.body.code).toBe('platform_not_connected');
    await connectSlack();
    const unknownKind = await call('POST', routes, acme.member.key, { kind: 'task.exploded', channel: 'C1' });
    expect(unknownKind.status).toBe(400);
    expect(unknownKind.body).toEqual({ detail: expect.any(String), code: 'unknown_notification_kind', extra: { parameter: 'kind' } });
    const unknownChannel = await call('POST', routes, acme.member.key, { kind: 'task.created', channel: 'C404' });
    expect(unknownChannel.status).toBe(400);
    expect(unknownChannel.body).toEqual({ detail: expect.any(String), code: 'channel_not_found', extra: { parameter: 'channel' } });
    expect((await call('POST', routes, acme.member.key, { kind: 'task.created', channel: 'email' })).body).toEqual({ kind: ['task.created is not delivered by e-mail.'] });

    const open = await createBoard(t, acme.adminKey);
    const secret = await createBoard(t, acme.adminKey, { key: 'SEC', visibility: 'members' });
    const absent = '0190c8f4-0000-7000-8000-000000000000';
    const scoped = await call('POST', routes, acme.adminKey, { kind: 'task.created', channel: 'C1', scope: { boards: [open.board.uuid, secret.board.uuid], projects: [absent] } });
    expect(scoped.status).toBe(400);
    expect(scoped.body).toEqual({ detail: expect.any(String), code: 'route_scope_not_org_visible', extra: { uuids: [secret.board.uuid, absent] } });

    // A member routes to the channels they see (public ones); an admin to private ones too.
    expect((await call('POST', routes, acme.member.key, { kind: 'task.created', channel: 'G2', scope: { boards: [open.board.uuid] } })).body.code).toBe('channel_not_found');
    const created = await call('POST', routes, acme.adminKey, { kind: 'task.created', channel: 'G2', scope: { boards: [open.board.uuid] } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      uuid: created.body.uuid, id: created.body.uuid, name: null, kind: 'task.created', kinds: ['task.created'], channel: 'G2', enabled: true, scope: { boards: [open.board.uuid], projects: [] },
      created_by: acme.admin.uuid, created_at: '2026-03-10T15:00:00.000Z', updated_at: '2026-03-10T15:00:00.000Z',
    });
    for (let i = 1; i < 10; i++) expect((await call('POST', routes, acme.adminKey, { kind: 'task.assigned', channel: i % 2 ? 'email' : 'C1' })).status).toBe(201);
    const over = await call('POST', routes, acme.adminKey, { kind: 'task.assigned', channel: 'C1' });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ detail: expect.any(String), code: 'notification_routes_limit_reached', extra: { limit: 10 } });

    const path = `${routes}${created.body.uuid}/`;
    expect((await call('GET', path, acme.member.key)).body).toEqual(created.body);
    expect((await call('PATCH', path, acme.member.key, { channel: 'nope' })).body.code).toBe('channel_not_found');
    expect((await call('PATCH', path, acme.member.key, { kind: 'nope' })).body.code).toBe('unknown_notification_kind');
    expect((await call('PATCH', path, acme.member.key, { channel: 'C1', scope: null })).body).toMatchObject({ channel: 'C1', scope: null });
    expect((await call('DELETE', `${path}?dry_run=true`, acme.adminKey)).body).toMatchObject({ dry_run: true, status: 204 });
    expect((await call('DELETE', path, acme.adminKey)).status).toBe(204);
    expect((await call('GET', routes, acme.member.key)).body.count).toBe(9);
    // Another organization's route is absent.
    const other = await seedPlanOrg(t, { name: `Other ${Math.random()}` });
    const theirs = (await call('GET', routes, acme.member.key)).body.results[0].uuid;
    expect((await call('GET', `${routes}${theirs}/`, other.adminKey)).status).toBe(404);
  });

  it('notify(): a mention reaches the inbox and a routed Slack channel; e-mail routes mail the recipients', async () => {
    await connectSlack();
    const { board, states } = await createBoard(t, acme.adminKey);
    const task = await insertTask(t, board, states.Todo);
    await call('POST', routes, acme.adminKey, { kind: 'task.mentioned', channel: 'C1', scope: { boards: [board.uuid] } });
    await call('POST', routes, acme.adminKey, { kind: 'task.mentioned', channel: 'C1' });
    await call('POST', routes, acme.adminKey, { kind: 'task.mentioned', channel: 'email' });
    await call('POST', routes, acme.adminKey, { kind: 'task.assigned', channel: 'G2' });

    // The actor and guests are left out; everyone else who sees the board is notified.
    const notified = await t.db.transaction((trx) => notify(trx, mention(board, task, [acme.member.user.uuid, acme.admin.uuid, acme.guest.user.uuid]), t.clock.now()));
    expect(notified.inbox).toHaveLength(1);
    expect(notified.deliveries).toBe(2); // one post to C1 (two routes, one channel), one e-mail

    const inbox = await call('GET', '/v1/plan/inbox/', acme.member.key);
    expect(inbox.body.results).toEqual([{
      uuid: notified.inbox[0], id: notified.inbox[0], kind: 'task.mentioned', object_type: 'task', object_uuid: task, board: board.uuid, project: null,
      title: 'PLAT-1 Fix login', body: 'Ada mentioned you: "@Mia can you look?"', data: { comment: 'c1', key: 'PLAT-1' },
      actor: { uuid: acme.admin.uuid, id: acme.admin.uuid, full_name: 'Ada Admin', name: 'Ada Admin' }, agent_name: 'Triage bot', is_read: false, read_at: null,
      created_at: '2026-03-10T15:00:00.000Z',
    }]);
    await t.deps.delivery.runDue();
    const posts = rx.received.filter((r) => r.url === '/api/chat.postMessage');
    expect(posts).toHaveLength(1);
    expect(posts[0].json).toMatchObject({ channel: 'C1', text: expect.stringContaining('Ada mentioned you') });
    expect(posts[0].json.text).toContain('PLAT-1 Fix login');
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0].envelopeTo).toEqual([`mia@${acme.org.slug}.test`]);
    expect(sink.messages[0].subject).toBe('[Rollcall] Mentioned: PLAT-1 Fix login');
  });

  it('notify(): on a members-only board, only its members (and admins) are notified, and nothing goes to a channel', async () => {
    await connectSlack();
    await call('POST', routes, acme.adminKey, { kind: 'task.mentioned', channel: 'C1' });
    const { board, states } = await createBoard(t, acme.adminKey, { key: 'SEC', visibility: 'members' });
    await call('POST', `/v1/plan/boards/${board.uuid}/members/`, acme.adminKey, { user: acme.other.user.uuid });
    const task = await insertTask(t, board, states.Todo);
    const notice = { ...mention(board, task, [acme.member.user.uuid, acme.other.user.uuid]), actor: null };
    const notified = await t.db.transaction((trx) => notify(trx, notice, t.clock.now()));
    expect(notified).toEqual({ inbox: [expect.any(String)], deliveries: 0 });
    expect((await call('GET', '/v1/plan/inbox/', acme.other.key)).body.count).toBe(1);
    expect((await call('GET', '/v1/plan/inbox/', acme.member.key)).body.count).toBe(0);
  });

  it('keeps each person\'s inbox: unread filter, summary, read, unread, read-all; another\'s notification is absent; agents get 403', async () => {
    const { board, states } = await createBoard(t, acme.adminKey);
    const task = await insertTask(t, board, states.Todo);
    for (let i = 0; i < 3; i++) {
      await t.db.transaction((trx) => notify(trx, mention(board, task, [acme.member.user.uuid]), t.clock.now()));
      t.clock.advance(1000);
    }
    await t.db.transaction((trx) => notify(trx, { ...mention(board, task, [acme.member.user.uuid]), kind: 'task.assigned' }, t.clock.now()));
    const list = await call('GET', '/v1/plan/inbox/', acme.member.key);
    expect(list.body.count).toBe(4);
    expect(list.body.results[0].kind).toBe('task.assigned');
    const first = list.body.results[1].uuid;
    const read = await call('POST', `/v1/plan/inbox/${first}/read/`, acme.member.key);
    expect(read.body).toMatchObject({ uuid: first, is_read: true, read_at: '2026-03-10T15:00:03.000Z' });
    expect((await call('GET', '/v1/plan/inbox/summary/', acme.member.key)).body).toEqual({ unread: 3, total: 4 });
    expect((await call('GET', '/v1/plan/inbox/?unread=true', acme.member.key)).body.count).toBe(3);
    expect((await call('GET', '/v1/plan/inbox/?unread=false', acme.member.key)).body.count).toBe(1);
    expect((await call('GET', '/v1/plan/inbox/?kind=task.assigned', acme.member.key)).body.count).toBe(1);
    expect((await call('GET', '/v1/plan/inbox/?kind=nope', acme.member.key)).body.code).toBe('invalid_filter_value');
    expect((await call('POST', `/v1/plan/inbox/${first}/unread/`, acme.member.key)).body.is_read).toBe(false);
    expect((await call('POST', `/v1/plan/inbox/${first}/read/`, acme.other.key)).status).toBe(404);
    expect((await call('POST', '/v1/plan/inbox/read-all/?kind=task.mentioned', acme.member.key)).body).toEqual({ marked: 3 });
    expect((await call('POST', '/v1/plan/inbox/read-all/', acme.member.key)).body).toEqual({ marked: 1 });
    expect((await call('GET', '/v1/plan/inbox/summary/', acme.member.key)).body).toEqual({ unread: 0, total: 4 });
    const agent = await call('GET', '/v1/plan/inbox/', acme.agentKey);
    expect(agent.status).toBe(403);
    expect(agent.body.code).toBe('insufficient_scope');
    expect(await countRows(t, 'plan_changes', (q) => q.where({ organization_uuid: acme.org.uuid }))).toBeGreaterThan(0);
  });
});
