import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { createBoard, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';

describe('Plan: the person\'s own doors (activity cursor, recents, task counts, briefing, notification preferences)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  let board: { uuid: string; key: string };
  let states: Record<string, string>;
  beforeEach(async () => {
    ({ t, acme, call } = await startPlanApp());
    ({ board, states } = await createBoard(t, acme.adminKey));
  });
  afterEach(async () => t.close());

  const ex = (method: string, path: string, key: string, body?: unknown) => t.request(method, path, { key, body, example: true });

  it('keeps how far you read the activity feed: null at first, any moment up to now, never a later one', async () => {
    expect((await ex('GET', '/v1/plan/me/activity-cursor/', acme.member.key)).body).toEqual({ last_seen_at: null });
    const set = await ex('PUT', '/v1/plan/me/activity-cursor/', acme.member.key, { last_seen_at: '2026-03-10T16:00:00+01:00' });
    expect([set.status, set.body]).toEqual([200, { last_seen_at: '2026-03-10T15:00:00.000Z' }]);
    expect((await call('GET', '/v1/plan/me/activity-cursor/', acme.member.key)).body).toEqual({ last_seen_at: '2026-03-10T15:00:00.000Z' });
    const later = await call('PUT', '/v1/plan/me/activity-cursor/', acme.member.key, { last_seen_at: '2026-03-11T00:00:00Z' });
    expect([later.status, later.body]).toEqual([400, { detail: 'last_seen_at is in the future.', code: 'invalid_filter_value', extra: { parameter: 'last_seen_at' } }]);
    expect((await call('PUT', '/v1/plan/me/activity-cursor/', acme.member.key, { last_seen_at: 'yesterday' })).status).toBe(400);
    // Someone else's cursor is their own; keys that act for no one have none.
    expect((await call('GET', '/v1/plan/me/activity-cursor/', acme.other.key)).body).toEqual({ last_seen_at: null });
    expect((await call('GET', '/v1/plan/me/activity-cursor/', acme.agentKey)).body.code).toBe('insufficient_scope');
  });

  it('lists the boards you opened last, newest first, only those you still see', async () => {
    const other = (await createBoard(t, acme.adminKey, { name: 'Secret', key: 'SEC', visibility: 'members' })).board;
    const visit = await ex('POST', `/v1/plan/boards/${board.uuid}/visit/`, acme.adminKey);
    expect([visit.status, visit.body]).toEqual([200, { board: board.uuid, visited_at: '2026-03-10T15:00:00.000Z' }]);
    t.clock.advance(1_000);
    await call('POST', `/v1/plan/boards/${other.uuid}/visit/`, acme.adminKey);
    const recents = await ex('GET', '/v1/plan/me/recents/', acme.adminKey);
    expect(recents.body.results.map((b: { key: string; visited_at: string }) => `${b.key} ${b.visited_at}`)).toEqual(['SEC 2026-03-10T15:00:01.000Z', 'PLAT 2026-03-10T15:00:00.000Z']);
    // Mia cannot open a members-only board she is not on (404), and her recents are hers.
    expect((await call('POST', `/v1/plan/boards/${other.uuid}/visit/`, acme.member.key)).status).toBe(404);
    expect((await call('GET', '/v1/plan/me/recents/', acme.member.key)).body).toEqual({ count: 0, results: [] });
  });

  it('counts your open tasks by due date in your time zone, and previews the briefing built from them', async () => {
    const task = async (title: string, due: string | null, state = states.Todo) =>
      (await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title, owner: acme.member.user.uuid, due_date: due, state })).body;
    await task('Late', '2026-03-09');
    await task('Today', '2026-03-10');
    await task('Friday', '2026-03-13', states['In Progress']);
    await task('Someday', null);
    await task('Done already', '2026-03-01', states.Done);
    const counts = await ex('GET', '/v1/plan/me/tasks/counts/', acme.member.key);
    expect(counts.body).toEqual({ date: '2026-03-10', open: 4, overdue: 1, due_today: 1, due_this_week: 1, no_due_date: 1, in_progress: 1 });
    expect((await call('GET', '/v1/plan/me/tasks/counts/', acme.other.key)).body).toMatchObject({ open: 0, overdue: 0 });

    expect((await ex('GET', '/v1/plan/me/briefing/', acme.member.key)).body).toEqual({ enabled: false, time: '08:30', weekdays: [1, 2, 3, 4, 5], timezone: 'UTC', is_default: true });
    const saved = await ex('PUT', '/v1/plan/me/briefing/', acme.member.key, { enabled: true, time: '07:45', timezone: 'Europe/Madrid' });
    expect(saved.body).toEqual({ enabled: true, time: '07:45', timezone: 'Europe/Madrid', weekdays: [1, 2, 3, 4, 5], is_default: false });
    expect((await call('PUT', '/v1/plan/me/briefing/', acme.member.key, { time: '25:00' })).body).toEqual({ time: ['A time of day as HH:MM (00:00 to 23:59).'] });
    const preview = await ex('GET', '/v1/plan/me/briefing/preview/', acme.member.key);
    expect(preview.body).toMatchObject({ title: 'Your Plan for 2026-03-10', open: 4, unread_notifications: 5 });
    expect(preview.body.sections.map((s: { name: string; count: number }) => `${s.name} ${s.count}`)).toEqual(['overdue 1', 'due_today 1', 'due_this_week 1', 'in_progress 1']);
    expect(preview.body.text).toContain('- PLAT-1 Late (due 2026-03-09)');

    const dry = await call('POST', '/v1/plan/me/briefing/send-test/?dry_run=true', acme.member.key);
    expect(dry.body).toMatchObject({ dry_run: true, status: 200 });
    const before = await t.db('deliveries').where({ kind: 'plan.briefing' }).count({ n: '*' });
    expect(Number(before[0].n)).toBe(0);
    const sent = await ex('POST', '/v1/plan/me/briefing/send-test/', acme.member.key);
    expect(sent.body).toMatchObject({ sent_to: acme.member.user.email, briefing: { title: 'Your Plan for 2026-03-10' } });
    expect(await t.db('deliveries').where({ kind: 'plan.briefing' }).pluck('destination')).toEqual([acme.member.user.email]);
  });

  it('turns notification kinds off for you alone, and notify() leaves you out of them', async () => {
    const prefs = await ex('GET', '/v1/plan/me/notifications/', acme.member.key);
    expect(prefs.body.items.find((i: { kind: string }) => i.kind === 'task.assigned')).toEqual({ kind: 'task.assigned', name: 'Task assigned', default_enabled: true, enabled: true, chat: false, email: false });
    const off = await ex('PUT', '/v1/plan/me/notifications/', acme.member.key, { items: [{ kind: 'task.assigned', enabled: false }] });
    expect(off.body.items.find((i: { kind: string }) => i.kind === 'task.assigned').enabled).toBe(false);
    const unknown = await call('PUT', '/v1/plan/me/notifications/', acme.member.key, { items: [{ kind: 'task.nope', enabled: false }] });
    expect([unknown.status, unknown.body.code, unknown.body.extra]).toEqual([400, 'unknown_notification_kind', { parameter: 'items' }]);
    expect((await call('PUT', '/v1/plan/me/notifications/', acme.member.key, { paused_until: '2026-04-01T00:00:00Z' })).body.code).toBe('invalid_filter_value');

    await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: 'For Mia', owner: acme.member.user.uuid });
    await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: 'For Otto', owner: acme.other.user.uuid });
    expect((await call('GET', '/v1/plan/inbox/', acme.member.key)).body.count).toBe(0);
    expect((await call('GET', '/v1/plan/inbox/', acme.other.key)).body.count).toBe(1);
    expect((await ex('GET', '/v1/plan/inbox/unread-count/', acme.other.key)).body).toEqual({ count: 1 });
    expect((await call('GET', '/v1/plan/inbox/unread-count/?mentioned=true', acme.other.key)).body).toEqual({ count: 0 });
    expect((await call('GET', '/v1/plan/inbox/?type=task.assigned', acme.other.key)).body.count).toBe(1);
    await call('PUT', '/v1/plan/me/notifications/', acme.member.key, { items: [{ kind: 'task.assigned', enabled: true }] });
    await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: 'For Mia again', owner: acme.member.user.uuid });
    expect((await call('GET', '/v1/plan/inbox/', acme.member.key)).body.count).toBe(1);
  });
});
