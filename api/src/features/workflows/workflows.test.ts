import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { MISSING, seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';
import { TEST_CA, startHttpsReceiver, startSmtpSink } from '../../../test/receivers.ts';
import type { HttpsReceiver } from '../../../test/receivers.ts';
import { fireWorkflowSchedules } from './feature.ts';

type Sink = Awaited<ReturnType<typeof startSmtpSink>>;

describe('Workflows (CONTRACT §7, §10)', () => {
  let t: TestApp;
  let p: People;
  let rx: HttpsReceiver;
  let sink: Sink;
  beforeEach(async () => {
    rx = await startHttpsReceiver((req) => (req.url.startsWith('/api/webhooks/') ? { status: 200, body: { id: '1' } } : { status: 204 }));
    sink = await startSmtpSink();
    t = await startTestApp(
      { allowPrivateWebhooks: true },
      { DELIVERY_RETRY_SCHEDULE: '10s,1m', RATE_LIMIT_WORKFLOW_TRIGGERS: '3', SMTP_URL: sink.url, DISCORD_WEBHOOK_BASE_URL: `${rx.url}/api/webhooks/` },
      { ca: TEST_CA, random: () => 0.5 },
    );
    t.clock.set(new Date(Math.floor(Date.now() / 60_000) * 60_000)); // webhook-timestamp is checked against the receiver's real clock
    p = await seedPeople(t);
  });
  afterEach(async () => {
    await t.close();
    await rx.close();
    await sink.close();
  });

  const create = (body: Record<string, unknown>, key = p.adminKey) => t.request('POST', '/v1/workflows/', { key, body });
  const hook = (body: Record<string, unknown> = {}) => ({ type: 'http_request', url: `${rx.url}/hook`, ...body });
  const runs = async (uuid: string) => (await t.request('GET', `/v1/workflows/${uuid}/runs/`, { key: p.adminKey })).body;

  it('creates (201, signing secret once), lists for everyone with header values hidden, changes and deletes (admins)', async () => {
    const res = await create({
      name: 'Notify CI', description: 'Tell CI', trigger_type: 'api_trigger',
      actions: [hook({ headers: { Authorization: 'Bearer ci-token' }, body: '{"text": "{{payload.text}}"}' })],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: res.body.uuid, id: res.body.uuid, name: 'Notify CI', description: 'Tell CI', trigger_type: 'api_trigger', trigger_config: {},
      actions: [{ type: 'http_request', url: `${rx.url}/hook`, method: 'POST', content_type: 'application/json', body: '{"text": "{{payload.text}}"}', headers: { Authorization: '••••••••' } }],
      active: true, total_runs: 0, last_run_at: null, created_at: t.clock.now().toISOString(), updated_at: t.clock.now().toISOString(),
      signing_secret: expect.stringMatching(/^whsec_/),
    });
    const list = await t.request('GET', '/v1/workflows/', { key: p.member.key });
    expect(list.body.count).toBe(1);
    expect(list.body.results[0]).not.toHaveProperty('signing_secret');
    expect(list.text).not.toContain('ci-token');
    expect(JSON.stringify(await t.db('workflows'))).not.toContain('ci-token');
    const refused = await create({ name: 'x', trigger_type: 'api_trigger', actions: [hook()] }, p.member.key);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('org_admin_required');
    expect((await t.request('PATCH', `/v1/workflows/${res.body.uuid}/`, { key: p.manager.key, body: { name: 'y' } })).status).toBe(403);
    const patched = await t.request('PATCH', `/v1/workflows/${res.body.uuid}/`, { key: p.adminKey, body: { name: 'Notify CI v2', active: false } });
    expect(patched.body).toMatchObject({ name: 'Notify CI v2', active: false, actions: [{ headers: { Authorization: '••••••••' } }] });
    const globex = await seedPeople(t, { name: 'Globex' });
    const foreign = await t.request('GET', `/v1/workflows/${res.body.uuid}/`, { key: globex.adminKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: 'Not found.', code: 'not_found' });
    expect((await t.request('GET', '/v1/workflows/?trigger_type=cron', { key: p.adminKey })).body.code).toBe('invalid_filter_value');
    expect((await t.request('DELETE', `/v1/workflows/${res.body.uuid}/`, { key: p.adminKey })).status).toBe(204);
    expect((await t.request('GET', `/v1/workflows/${res.body.uuid}/`, { key: p.adminKey })).status).toBe(404);
  });

  it('validates triggers, actions and templates with field messages; send_message needs a chat platform', async () => {
    const bad = await create({
      name: 'Bad', trigger_type: 'schedule', trigger_config: { cron: '61 * * * *', timezone: 'Mars/Base', event: 'kudos.posted' },
      actions: [
        { type: 'send_email', to: ['nobody'], subject: '{{{payload.raw}}}', body_html: '{{#payload.a}}{{#payload.b}}x{{/payload.b}}{{/payload.a}}', url: 'https://x.test' },
        { type: 'http_request', url: 'http://example.com/hook', body: '{{> partial}}', headers: { Host: 'evil' } },
        { type: 'http_request', url: `${rx.url}/x`, body: '{{payload.constructor}}' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      'trigger_config.cron': ['Must be a cron expression of five fields: minute hour day-of-month month day-of-week.'],
      'trigger_config.timezone': ['Must be an IANA time zone, for example Europe/Madrid.'],
      'trigger_config.event': ['Not a setting of schedule workflows.'],
      'actions.0.url': ['Not a field of send_email actions.'],
      'actions.0.to.0': ['Enter a valid e-mail address (or a template such as {{payload.email}}).'],
      'actions.0.subject': ['Unescaped tags ({{{…}}} and {{&…}}) are not available; {{…}} escapes for where the text goes.'],
      'actions.0.body_html': ['Sections ({{#…}} and {{^…}}) do not nest.'],
      'actions.1.url': ['Must be an HTTPS URL (ALLOW_PRIVATE_WEBHOOKS allows private addresses, not http://).'],
      'actions.1.body': ['Partials ({{>…}}) are not available.'],
      'actions.1.headers.Host': ['Not a header an action can set.'],
      'actions.2.body': ['{{payload.constructor}} is not a name a template can use.'],
    });
    const event = await create({ name: 'E', trigger_type: 'event', trigger_config: { event: 'kudos.given' }, actions: [hook()] });
    expect(event.body).toEqual({ 'trigger_config.event': ['Unknown event: use an organization event name (as webhook subscriptions do) or a prefix with .*.'] });
    const unknown = await create({ name: 'U', trigger_type: 'api_trigger', actions: [hook({ retries: 3 })] });
    expect(unknown.body).toEqual({ detail: 'Unknown field: actions.0.retries.', code: 'unknown_field', extra: { parameter: 'actions.0.retries' } });
    const chat = await create({ name: 'C', trigger_type: 'api_trigger', actions: [{ type: 'send_message', message: 'hi', target_channels: ['C1'] }] });
    expect(chat.status).toBe(400);
    expect(chat.body.code).toBe('platform_not_connected');
    expect((await create({ name: 'N', trigger_type: 'api_trigger', actions: [] })).body).toEqual({ actions: ['Ensure this list has at least 1 items.'] });
  });

  it('triggers an api_trigger workflow (202) and delivers a signed http_request to a real HTTPS server; the run succeeds', async () => {
    const wf = (await create({
      name: 'CI', trigger_type: 'api_trigger',
      actions: [hook({ headers: { Authorization: 'Bearer ci-token' }, body: '{"text": "{{payload.text}}", "n": {{payload.n}}, "run": "{{run.uuid}}"}' })],
    })).body;
    const res = await t.request('POST', `/v1/workflows/${wf.uuid}/trigger/`, { key: p.member.key, body: { payload: { text: 'Deploy "v2" done', n: 7 } } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ queued: true, workflow_uuid: wf.uuid, run_uuid: res.body.run_uuid, detail: 'The workflow run is queued; follow it at GET /v1/workflows/{uuid}/runs/.' });
    expect((await runs(wf.uuid)).results[0]).toMatchObject({ status: 'queued', actions: [{ status: 'queued', attempts: 0 }] });
    await t.deps.delivery.runDue();
    expect(rx.received).toHaveLength(1);
    const got = rx.received[0];
    expect(got.method).toBe('POST');
    expect(got.headers.authorization).toBe('Bearer ci-token');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.json).toEqual({ text: 'Deploy "v2" done', n: 7, run: res.body.run_uuid });
    expect(new Webhook(wf.signing_secret).verify(got.body, got.headers)).toEqual(got.json);
    const list = await runs(wf.uuid);
    expect(list.count).toBe(1);
    expect(list.results[0]).toMatchObject({
      uuid: res.body.run_uuid, workflow_uuid: wf.uuid, status: 'succeeded', trigger: 'api_trigger', event: null,
      payload: { text: 'Deploy "v2" done', n: 7 }, triggered_by: p.member.user.uuid,
      actions: [{ index: 0, type: 'http_request', status: 'succeeded', destination: `POST ${rx.url}/hook`, deliveries: 1, attempts: 1, last_status_code: 204, error: null }],
    });
    expect(list.results[0].log.map((l: { message: string }) => l.message)).toEqual([
      'Run queued by api_trigger with 1 action(s).',
      `Action 1 (http_request) to POST ${rx.url}/hook: attempt 1: delivered`,
      'Run succeeded.',
    ]);
    const detail = await t.request('GET', `/v1/workflows/${wf.uuid}/runs/${res.body.run_uuid}/`, { key: p.member.key });
    expect(detail.body).toEqual(list.results[0]);
    expect((await t.request('GET', `/v1/workflows/${wf.uuid}/`, { key: p.member.key })).body).toMatchObject({ total_runs: 1, last_run_at: t.clock.now().toISOString() });
    expect((await t.request('GET', `/v1/workflows/${wf.uuid}/runs/${MISSING}/`, { key: p.member.key })).status).toBe(404);
  });

  it('refuses to trigger schedule and event workflows (400 workflow_not_triggerable), off ones, and payloads over 8 KiB', async () => {
    const scheduled = (await create({ name: 'S', trigger_type: 'schedule', trigger_config: { cron: '0 9 * * *' }, actions: [hook()] })).body;
    const res = await t.request('POST', `/v1/workflows/${scheduled.uuid}/trigger/`, { key: p.adminKey, body: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'Only api_trigger workflows can be triggered through the API; this one runs on its schedule.', code: 'workflow_not_triggerable' });
    const off = (await create({ name: 'Off', trigger_type: 'api_trigger', active: false, actions: [hook()] })).body;
    expect((await t.request('POST', `/v1/workflows/${off.uuid}/trigger/`, { key: p.adminKey })).body.code).toBe('workflow_inactive');
    const on = (await create({ name: 'On', trigger_type: 'api_trigger', actions: [hook()] })).body;
    const big = await t.request('POST', `/v1/workflows/${on.uuid}/trigger/`, { key: p.manager.key, body: { payload: { blob: 'x'.repeat(8200) } } });
    expect(big.status).toBe(400);
    expect(big.body).toEqual({ payload: ['The payload is 8211 bytes of JSON; at most 8192 (8 KiB).'] });
    expect((await t.request('POST', `/v1/workflows/${on.uuid}/trigger/`, { key: p.manager.key, body: { payload: [1] } })).body).toEqual({ payload: ['Must be an object.'] });
    expect((await t.request('POST', `/v1/workflows/${MISSING}/trigger/`, { key: p.other.key })).status).toBe(404);
  });

  it('counts triggers against the workflow-trigger budget: past it, 429 throttled with Retry-After', async () => {
    const wf = (await create({ name: 'B', trigger_type: 'api_trigger', actions: [hook()] })).body;
    for (let i = 0; i < 3; i++) {
      const ok = await t.request('POST', `/v1/workflows/${wf.uuid}/trigger/`, { key: p.member.key });
      expect(ok.status).toBe(202);
      expect(ok.headers.get('ratelimit-policy')).toBe('"workflow_triggers";q=3;w=3600');
    }
    const over = await t.request('POST', `/v1/workflows/${wf.uuid}/trigger/`, { key: p.member.key });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('throttled');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other scopes are separate budgets.
    expect((await t.request('GET', `/v1/workflows/${wf.uuid}/runs/`, { key: p.member.key })).status).toBe(200);
  });

  it('retries a failing action and marks the run failed after the last attempt', async () => {
    rx.setResponder(() => ({ status: 500 }));
    const wf = (await create({ name: 'Flaky', trigger_type: 'api_trigger', actions: [hook()] })).body;
    await t.request('POST', `/v1/workflows/${wf.uuid}/trigger/`, { key: p.adminKey, body: { payload: { a: 1 } } });
    await t.deps.delivery.runDue();
    expect((await runs(wf.uuid)).results[0]).toMatchObject({ status: 'running', actions: [{ status: 'running', attempts: 1, last_status_code: 500, error: 'HTTP 500' }] });
    t.clock.advance(10_000);
    await t.deps.delivery.runDue();
    t.clock.advance(60_000);
    await t.deps.delivery.runDue();
    expect(rx.received).toHaveLength(3);
    const run = (await runs(wf.uuid)).results[0];
    expect(run).toMatchObject({ status: 'failed', actions: [{ status: 'failed', attempts: 3, last_status_code: 500, error: 'HTTP 500' }] });
    expect(run.finished_at).toBe(t.clock.now().toISOString());
    expect(run.log.map((l: { level: string }) => l.level)).toEqual(['info', 'warn', 'warn', 'error', 'error']);
    expect(run.log[3].message).toBe(`Action 1 (http_request) to POST ${rx.url}/hook: attempt 3: HTTP 500; failed`);
  });

  it('fires a schedule workflow in its time zone, driven by the injected clock, once per matching minute', async () => {
    t.clock.set('2026-03-10T07:58:00.000Z'); // 08:58 in Madrid (CET)
    const wf = (await create({ name: 'Morning', trigger_type: 'schedule', trigger_config: { cron: '0 9 * * 1-5', timezone: 'Europe/Madrid' }, actions: [hook({ body: '{"at": "{{payload.scheduled_for}}"}' })] })).body;
    expect(wf.trigger_config).toEqual({ cron: '0 9 * * 1-5', timezone: 'Europe/Madrid' });
    t.clock.set('2026-03-10T07:59:00.000Z');
    expect(await fireWorkflowSchedules(t.deps)).toBe(0);
    t.clock.set('2026-03-10T08:00:00.000Z'); // 09:00 in Madrid
    expect(await fireWorkflowSchedules(t.deps)).toBe(1);
    expect(await fireWorkflowSchedules(t.deps)).toBe(0);
    t.clock.set('2026-03-10T08:01:10.000Z');
    expect(await fireWorkflowSchedules(t.deps)).toBe(0);
    const run = (await runs(wf.uuid)).results[0];
    expect(run).toMatchObject({ trigger: 'schedule', payload: { scheduled_for: '2026-03-10T08:00:00.000Z', timezone: 'Europe/Madrid' } });
    // A minute missed while the server was down fires once when it is back (within the hour).
    t.clock.set('2026-03-11T08:20:00.000Z');
    expect(await fireWorkflowSchedules(t.deps)).toBe(1);
    // Saturday is not in 1-5.
    t.clock.set('2026-03-14T08:00:00.000Z');
    expect(await fireWorkflowSchedules(t.deps)).toBe(0);
    expect((await runs(wf.uuid)).count).toBe(2);
  });

  it('runs an event workflow on a kudos: e-mail, chat and a webhook, anonymity kept', async () => {
    await t.request('PATCH', '/v1/organization/', { key: p.adminKey, body: { platform: { kind: 'discord', webhook_url: `${rx.url}/api/webhooks/9/tok` } } });
    const wf = (await create({
      name: 'Celebrate', trigger_type: 'event', trigger_config: { event: 'kudos.posted' },
      actions: [
        { type: 'send_email', to: ['people@acme.test'], subject: 'Kudos to {{payload.receivers.0.full_name}}', body_html: '<p>{{payload.content}}</p>{{#payload.giver}}<p>from {{full_name}}</p>{{/payload.giver}}' },
        { type: 'send_message', message: '{{payload.content}}', target_users: [p.other.user.uuid] },
        hook({ body: '{"kudos": {{payload}}}' }),
      ],
    })).body;
    await t.request('POST', '/v1/kudos/', { key: p.member.key, body: { content: 'Thanks <for> the fix', receivers: [p.other.user.uuid], is_anonymous: true } });
    await t.deps.delivery.runDue();
    const run = (await runs(wf.uuid)).results[0];
    expect(run).toMatchObject({ status: 'succeeded', trigger: 'event', event: 'kudos.posted' });
    expect(run.actions.map((a: { status: string }) => a.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0].subject).toBe('Kudos to Otto Member');
    expect(sink.messages[0].html).toBe('<p>Thanks &lt;for&gt; the fix</p>');
    expect(rx.received.find((r) => r.url.startsWith('/api/webhooks/9/tok'))!.json.content).toBe('@Otto Member Thanks <for> the fix');
    const webhook = rx.received.find((r) => r.url === '/hook')!;
    expect(webhook.json.kudos).toMatchObject({ content: 'Thanks <for> the fix', is_anonymous: true });
    expect(webhook.json.kudos).not.toHaveProperty('giver');
    expect(webhook.body).not.toContain(p.member.user.uuid);
    expect(JSON.stringify(run)).not.toContain(p.member.user.uuid);
  });

  it('runs an event workflow on a check-in answer that reports a blocker, and only then (match)', async () => {
    const wf = (await create({ name: 'Blockers', trigger_type: 'event', trigger_config: { event: 'followups.response.completed', match: { has_issue: true } }, actions: [hook({ body: '{"blocked": {{payload.has_issue}}, "answers": {{payload.responses}}}' })] })).body;
    const checkin = (await t.request('POST', '/v1/checkins/create/', {
      key: p.adminKey,
      body: {
        name: 'Daily', schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: '09:00', timezone: 'UTC' }, participants: { user_uuids: [p.member.user.uuid, p.other.user.uuid] },
        questions: [{ question_type: 'text', question: 'Done?' }, { question_type: 'text', question: 'Blockers?', is_blocker: true, required: false }],
      },
    })).body;
    await t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key, body: { responses: [{ index: 0, response: 'Shipped' }, { index: 1, response: 'none' }] } });
    expect((await runs(wf.uuid)).count).toBe(0);
    await t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.other.key, body: { responses: [{ index: 0, response: 'Half' }, { index: 1, response: 'Waiting for the database' }] } });
    await t.deps.delivery.runDue();
    expect((await runs(wf.uuid)).results).toMatchObject([{ status: 'succeeded', trigger: 'event', event: 'followups.response.completed', payload: { has_issue: true } }]);
    expect(rx.received[0].json).toMatchObject({ blocked: true, answers: [{ response: 'Half' }, { response: 'Waiting for the database' }] });
  });

  it('records an action that cannot be queued as failed and still runs the others', async () => {
    const wf = (await create({ name: 'Half', trigger_type: 'api_trigger', actions: [{ type: 'send_email', to: ['{{payload.email}}'], subject: 's', body_html: 'b' }, hook()] })).body;
    await t.request('POST', `/v1/workflows/${wf.uuid}/trigger/`, { key: p.adminKey, body: { payload: { email: 'not an address' } } });
    await t.deps.delivery.runDue();
    const run = (await runs(wf.uuid)).results[0];
    expect(run.status).toBe('failed');
    expect(run.actions).toMatchObject([{ status: 'failed', error: 'not an e-mail address: not an address', deliveries: 0 }, { status: 'succeeded' }]);
    expect(run.log[1]).toMatchObject({ level: 'error', message: 'Action 1 (send_email) could not be queued: not an e-mail address: not an address' });
  });
});
