import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import type { startHttpsReceiver, startSmtpSink } from '../../../../test/receivers.ts';
import { createBoard, insertTask, planClient, seedPlanOrg, startChatAndMailApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { sendDueReports } from './feature.ts';

describe('Plan scheduled reports (CONTRACT §9; spec invalid_schedule, report_schedules_limit_reached)', () => {
  let t: TestApp;
  let rx: Awaited<ReturnType<typeof startHttpsReceiver>>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let acme: PlanOrg;
  let call: PlanCall;
  const base = '/v1/plan/reports/';
  let app: Awaited<ReturnType<typeof startChatAndMailApp>>;
  beforeAll(async () => {
    app = await startChatAndMailApp([{ id: 'C1', name: 'eng' }]);
    ({ t, rx, sink } = app);
  });
  afterAll(async () => app.close());
  beforeEach(async () => {
    t.clock.set('2026-03-10T15:00:00.000Z');
    // Reports of earlier tests' organizations are due too; each test starts with none.
    await t.db('plan_report_schedules').delete();
    acme = await seedPlanOrg(t, { name: `Acme ${Math.random()}` });
    call = planClient(t);
    rx.received.length = 0;
    sink.messages.length = 0;
  });

  const mia = () => `mia@${acme.org.slug}.test`;
  const refused = async (body: Record<string, unknown>) => (await call('POST', base, acme.member.key, { name: 'Standup', kind: 'daily', email_recipients: [mia()], ...body })).body;

  it('answers 400 invalid_schedule naming the field in extra.parameter', async () => {
    const invalid = (parameter: string) => ({ detail: expect.any(String), code: 'invalid_schedule', extra: { parameter } });
    for (const weekdays of [[], [0], [8], [1, 1], ['mon'], 'mon', [1.5]]) expect(await refused({ weekdays })).toEqual(invalid('weekdays'));
    for (const time of ['24:00', '9:00', '09:60', 900, '']) expect(await refused({ time })).toEqual(invalid('time'));
    for (const timezone of ['Mars/Olympus', '', 5]) expect(await refused({ timezone })).toEqual(invalid('timezone'));
    for (const kind of ['hourly', undefined, 3]) expect(await refused({ kind })).toEqual(invalid('kind'));
    expect(await refused({ email_recipients: null })).toEqual(invalid('channel'));
    expect(await refused({ channel: 7 })).toEqual(invalid('channel'));
    expect(await refused({ email_recipients: ['someone@elsewhere.test'] })).toEqual(invalid('email_recipients'));
    expect(await refused({ email_recipients: ['not an address'] })).toEqual({ 'email_recipients.0': [expect.any(String)] });
    expect((await refused({ channel: 'C1' })).code).toBe('platform_not_connected');
    await call('PATCH', '/v1/organization/', acme.adminKey, { platform: { kind: 'slack', bot_token: 'xoxb-test-token' } });
    expect(await refused({ channel: 'C404' })).toEqual({ detail: expect.any(String), code: 'channel_not_found', extra: { parameter: 'channel' } });
    const secret = await createBoard(t, acme.adminKey, { key: 'SEC', visibility: 'members' });
    expect(await refused({ scope: { boards: [secret.board.uuid] } })).toEqual({ detail: expect.any(String), code: 'route_scope_not_org_visible', extra: { uuids: [secret.board.uuid] } });
  });

  it('fills in defaults, keeps 10 per organization (report_schedules_limit_reached, extra.limit), and edits and deletes', async () => {
    await t.db('organizations').where({ uuid: acme.org.uuid }).update({ timezone: 'Europe/Berlin' });
    const created = await call('POST', base, acme.member.key, { name: 'Week ahead', kind: 'week_start', email_recipients: [mia().toUpperCase()] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      uuid: created.body.uuid, id: created.body.uuid, name: 'Week ahead', kind: 'week_start', enabled: true, weekdays: [1], time: '09:00', timezone: 'Europe/Berlin',
      channel: null, email_recipients: [mia()], scope: null, last_run_at: null, next_run_at: '2026-03-16T08:00:00.000Z',
      created_by: acme.member.user.uuid, created_at: '2026-03-10T15:00:00.000Z', updated_at: '2026-03-10T15:00:00.000Z',
    });
    for (let i = 1; i < 10; i++) expect((await call('POST', base, acme.adminKey, { name: `R${i}`, kind: 'daily', email_recipients: [mia()] })).status).toBe(201);
    const over = await call('POST', base, acme.adminKey, { name: 'R11', kind: 'daily', email_recipients: [mia()] });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ detail: expect.any(String), code: 'report_schedules_limit_reached', extra: { limit: 10 } });

    const listed = await call('GET', base, acme.member.key);
    expect(listed.body.count).toBe(10);
    expect(listed.body.results).toContainEqual(created.body);
    const path = `${base}${created.body.uuid}/`;
    expect((await call('PATCH', path, acme.member.key, { time: '25:00' })).body.extra).toEqual({ parameter: 'time' });
    const edited = await call('PATCH', path, acme.member.key, { weekdays: [3, 1], time: '07:30', timezone: 'Asia/Tokyo' });
    expect(edited.body).toMatchObject({ weekdays: [1, 3], time: '07:30', timezone: 'Asia/Tokyo', next_run_at: '2026-03-10T22:30:00.000Z' });
    expect((await call('PATCH', path, acme.member.key, { enabled: false })).body).toMatchObject({ enabled: false, next_run_at: null });
    expect((await call('DELETE', `${path}?dry_run=true`, acme.adminKey)).body).toMatchObject({ dry_run: true, status: 204 });
    expect((await call('DELETE', path, acme.adminKey)).status).toBe(204);
    expect((await call('GET', path, acme.adminKey)).status).toBe(404);
  });

  it('says per board what was done, what is in progress and what is blocked', async () => {
    const project = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' });
    const { board, states } = await createBoard(t, acme.adminKey, { project: project.body.uuid });
    const other = await createBoard(t, acme.adminKey, { key: 'OPS', name: 'Ops' });
    const secret = await createBoard(t, acme.adminKey, { key: 'SEC', name: 'Secret', visibility: 'members' });
    const doneToday = await insertTask(t, board, states.Done);
    const doneLongAgo = await insertTask(t, board, states.Done);
    const working = await insertTask(t, board, states['In Progress']);
    const blocked = await insertTask(t, board, states.Todo);
    const freed = await insertTask(t, board, states.Todo);
    const finishedBlocker = await insertTask(t, board, states.Done);
    await insertTask(t, secret.board, secret.states['In Progress']);
    await insertTask(t, other.board, other.states['In Progress']);
    await t.db('plan_tasks').where({ uuid: doneToday }).update({ completed_at: '2026-03-10T10:00:00.000Z', title: 'Ship it', owner_uuid: acme.member.user.uuid });
    await t.db('plan_tasks').where({ uuid: doneLongAgo }).update({ completed_at: '2026-03-05T10:00:00.000Z' });
    await t.db('plan_tasks').whereIn('uuid', [finishedBlocker]).update({ completed_at: '2026-03-01T10:00:00.000Z' });
    const relation = (source: string, target: string, type: 'blocks' | 'relates_to' = 'blocks') =>
      t.db('plan_task_relations').insert({ uuid: uuidv7(), organization_uuid: acme.org.uuid, source_task_uuid: source, target_task_uuid: target, relation_type: type, created_at: '2026-03-10T10:00:00.000Z' });
    await relation(working, blocked);
    await relation(finishedBlocker, freed);
    await relation(working, freed, 'relates_to');

    const created = await call('POST', base, acme.member.key, { name: 'Launch', kind: 'daily', email_recipients: [mia()], scope: { projects: [project.body.uuid] } });
    const preview = await call('GET', `${base}${created.body.uuid}/preview/`, acme.member.key);
    expect(preview.status).toBe(200);
    expect(preview.body.boards).toEqual([{
      board: { uuid: board.uuid, key: 'PLAT', name: 'Platform' },
      project: { uuid: project.body.uuid, name: 'Launch' },
      done: [{ key: 'PLAT-1', title: 'Ship it', owner: 'Mia Member' }],
      in_progress: [{ key: 'PLAT-3', title: 'Task 3', owner: null }],
      blocked: [{ key: 'PLAT-4', title: 'Task 4', owner: null, blocked_by: ['PLAT-3'] }],
    }]);
    expect(preview.body.period).toEqual({ from: '2026-03-09T15:00:00.000Z', to: '2026-03-10T15:00:00.000Z' });
    expect(preview.body.text).toBe([
      `Daily report: Launch (2026-03-10)`,
      [
        'PLAT · Platform (project Launch)',
        'Done (1):', '  • PLAT-1 Ship it (Mia Member)',
        'In progress (1):', '  • PLAT-3 Task 3',
        'Blocked (1):', '  • PLAT-4 Task 4 blocked by PLAT-3',
      ].join('\n'),
    ].join('\n\n'));
    // Without a scope: every board everyone sees, the members-only one left out.
    const all = await call('POST', base, acme.member.key, { name: 'All', kind: 'week_end', email_recipients: [mia()] });
    const boards = (await call('GET', `${base}${all.body.uuid}/preview/`, acme.member.key)).body.boards;
    expect(boards.map((b: { board: { key: string } }) => b.board.key)).toEqual(['OPS', 'PLAT']);
    expect(boards[1].done.map((d: { key: string }) => d.key)).toEqual(['PLAT-2', 'PLAT-1']);
  });

  it('runs in its time zone across a DST change, once per due time, and once for the times missed while down', async () => {
    await call('PATCH', '/v1/organization/', acme.adminKey, { platform: { kind: 'slack', bot_token: 'xoxb-test-token' } });
    const created = await call('POST', base, acme.member.key, { name: 'NY standup', kind: 'daily', weekdays: [1, 2, 3, 4, 5, 6, 7], time: '09:00', timezone: 'America/New_York', channel: 'C1', email_recipients: [mia()] });
    expect(created.body.next_run_at).toBe('2026-03-11T13:00:00.000Z');
    // Start before the change: Saturday 2026-03-07, 09:00 EST is 14:00Z.
    await call('PATCH', `${base}${created.body.uuid}/`, acme.member.key, { enabled: false });
    t.clock.set('2026-03-07T12:00:00.000Z');
    expect((await call('PATCH', `${base}${created.body.uuid}/`, acme.member.key, { enabled: true })).body.next_run_at).toBe('2026-03-07T14:00:00.000Z');
    t.clock.set('2026-03-07T13:59:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(0);
    t.clock.set('2026-03-07T14:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    expect(await sendDueReports(t.deps)).toBe(0);
    // Sunday 2026-03-08: clocks go forward at 02:00; 09:00 EDT is 13:00Z.
    t.clock.set('2026-03-08T12:59:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(0);
    t.clock.set('2026-03-08T13:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    t.clock.set('2026-03-08T14:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(0);
    // Down from Sunday until Wednesday afternoon: the missed Monday, Tuesday and Wednesday make one report.
    t.clock.set('2026-03-11T20:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    expect(await sendDueReports(t.deps)).toBe(0);
    const row = (await call('GET', `${base}${created.body.uuid}/`, acme.member.key)).body;
    expect(row).toMatchObject({ last_run_at: '2026-03-11T20:00:00.000Z', next_run_at: '2026-03-12T13:00:00.000Z' });

    await t.deps.delivery.runDue();
    const posts = rx.received.filter((r) => r.url === '/api/chat.postMessage');
    expect(posts.map((p) => p.json.channel)).toEqual(['C1', 'C1', 'C1']);
    expect(posts.map((p) => p.json.text.split('\n')[0])).toEqual(['Daily report: NY standup (2026-03-07)', 'Daily report: NY standup (2026-03-08)', 'Daily report: NY standup (2026-03-11)']);
    expect(sink.messages.map((m) => [m.subject, m.envelopeTo])).toEqual([
      ['[Rollcall] Daily report: NY standup (2026-03-07)', [mia()]],
      ['[Rollcall] Daily report: NY standup (2026-03-08)', [mia()]],
      ['[Rollcall] Daily report: NY standup (2026-03-11)', [mia()]],
    ]);
  });

  it('runs a time skipped by the clock change when the clock resumes, and sends on demand with run/', async () => {
    const created = await call('POST', base, acme.member.key, { name: 'Early', kind: 'daily', weekdays: [7], time: '02:30', timezone: 'America/New_York', email_recipients: [mia()] });
    // Sunday 2026-03-08 02:30 does not exist in New York; it runs at 03:30 EDT (07:30Z).
    t.clock.set('2026-03-01T12:00:00.000Z');
    await call('PATCH', `${base}${created.body.uuid}/`, acme.member.key, { time: '02:31' });
    expect((await call('PATCH', `${base}${created.body.uuid}/`, acme.member.key, { time: '02:30' })).body.next_run_at).toBe('2026-03-08T07:30:00.000Z');
    const ran = await call('POST', `${base}${created.body.uuid}/run/`, acme.member.key);
    expect(ran.status).toBe(200);
    expect(ran.body).toMatchObject({ deliveries: 1, report: { title: 'Daily report: Early (2026-03-01)' } });
    expect((await call('GET', `${base}${created.body.uuid}/`, acme.member.key)).body).toMatchObject({ last_run_at: '2026-03-01T12:00:00.000Z', next_run_at: '2026-03-08T07:30:00.000Z' });
  });
});
