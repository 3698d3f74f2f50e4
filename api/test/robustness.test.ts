import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from './harness.ts';
import type { TestApp } from './harness.ts';
import { setExchangeCommand } from '../src/admin/commands.ts';
import { accepts, matrixRowOf, takesExchangeToken } from '../src/auth/method-matrix.ts';

/**
 * Bad input gets a 4xx, never a 500: every route of the router table, with unknown ids, junk query values
 * and junk bodies, as an admin (who passes most guards and so reaches the deepest code): with the admin's API
 * key, or a CLI token where the method matrix takes tokens only. The routes that take an exchange token get junk
 * ones too.
 */
const JUNK_QUERIES = [
  '?page=0', '?page=abc', '?page_size=1000', '?limit=-1', '?offset=x', '?since=yesterday', '?until=2026-13-45',
  '?date=31/12/2026', '?start_date=nope', '?end_date=2026-02-30', '?search=a', `?search=${'x'.repeat(300)}`,
  '?ordering=password', '?delivered=maybe', '?agent_name=', `?agent_name=${'n'.repeat(200)}`, '?include_email=perhaps',
  '?status=exploded', '?user=not-a-uuid', '?filter=bogus', '?owner_user_ids=a,b', '?date_start=2026-05-01&date_end=2026-01-01',
  '?include_archived=perhaps', '?member=me', '?member=nobody', '?type=nope', '?project=x', '?goal=%00', '?visibility=secret', '?ordering=-',
  '?ordering=name&ordering=key', '?dry_run=maybe', '?migrate_to=nope',
];
/** Plan writes also read headers. */
const JUNK_HEADERS: Record<string, string>[] = [{ 'idempotency-key': 'short' }, { 'x-service-agent-name': '%E0%A4%A' }, { 'x-service-agent-name': 'x'.repeat(200) }, { 'idempotency-key': 'robustness-key-1' }];
const JUNK_BODIES: (string | unknown)[] = [
  [], 'text', 42, null, {}, { unexpected: true }, { name: { nested: 'object' } }, { agent_name: 5, content: [] },
  { email: 'not-an-email', to: 'x', subject: 1 }, { responses: 'all good' }, { members: [{ uuid: 'nope' }] },
  { schedule: { days: [9], time: '25:61', timezone: 'Nowhere/City' } }, { hook_url: 'ftp://example.com', subscriptions: 'all' },
];

const JUNK_EXCHANGE_TOKENS = ['', 'rxt_', `rxt_${'A'.repeat(48)}`, 'x'.repeat(5000), 'rxt_\u00e9\u00e9'];

describe('robustness: no 500 on bad input, anywhere', () => {
  let t: TestApp;
  let key: string;
  let token: () => Promise<string>;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    // Plan minute ceilings out of the way, so every junk request reaches the code behind them.
    t = await startTestApp({ agentSelfRegistration: true, inboundEmailSecret: 'inbound-secret', allowPrivateWebhooks: true, planMinuteLimits: { reads: 1e6, writes: 1e6, bulk: 1e6, delta: 1e6 } });
    const acme = await t.seedOrganization({ plan: 'enterprise', beta: true });
    key = acme.adminKey;
    token = () => t.seedToken(acme.org.uuid, acme.admin.uuid);
    await setExchangeCommand(t.db, t.clock, acme.org.uuid, 'on');
    // Real objects, so the junk reaches the code behind the lookups too.
    const member = await t.seedUser(acme.org.uuid);
    const team = await t.request('POST', '/v1/teams/', { key, body: { name: 'Core' } });
    await t.request('POST', `/v1/teams/${team.body.uuid}/member/`, { key, body: { members: [{ uuid: member.user.uuid }] } });
    const checkin = await t.request('POST', '/v1/checkins/create/', {
      key,
      body: {
        name: 'Daily', schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: '09:00', timezone: 'UTC' },
        participants: { user_uuids: [acme.admin.uuid, member.user.uuid] },
        questions: [{ question_type: 'text', question: 'What did you do?' }, { question_type: 'text', question: 'Blockers?', is_blocker: true }],
      },
    });
    const detail = await t.request('GET', `/v1/checkins/${checkin.body.uuid}/detail/`, { key });
    const templates = await t.request('GET', '/v1/templates/', { key });
    await t.request('POST', '/v1/invite-user/', { key, body: { email: 'new@acme.test' } });
    const deliveries = await t.request('GET', '/v1/deliveries/', { key });
    const value = await t.request('POST', '/v1/company-values/', { key, body: { value: 'Teamwork' } });
    const kudos = await t.request('POST', '/v1/kudos/', { key, body: { content: 'Thanks', receivers: [team.body.uuid], company_value: value.body.uuid } });
    const workflow = await t.request('POST', '/v1/workflows/', { key, body: { name: 'Hook', trigger_type: 'api_trigger', actions: [{ type: 'http_request', url: 'https://127.0.0.1:9/hook' }] } });
    const run = await t.request('POST', `/v1/workflows/${workflow.body.uuid}/trigger/`, { key, body: { payload: { a: 1 } } });
    const form = await t.request('POST', '/v1/forms/create/', { key, body: { name: 'Leave', form_type: 'approval', questions: [{ question_type: 'text', question: 'When?' }] } });
    const response = await t.request('POST', `/v1/forms/${form.body.uuid}/responses/`, { key, body: { responses: [{ index: 0, response: 'May' }] } });
    const plan = async (path: string, body: unknown) => (await t.request('POST', path, { key, body })).body.uuid as string;
    const goal = await plan('/v1/plan/goals/', { name: 'Grow' });
    const project = await plan('/v1/plan/projects/', { name: 'Launch', goal });
    const board = await plan('/v1/plan/boards/', { name: 'Platform', key: 'PLAT', project });
    const states = await t.request('GET', `/v1/plan/boards/${board}/states/`, { key });
    await t.request('POST', `/v1/plan/boards/${board}/members/`, { key, body: { user: member.user.uuid } });
    await t.request('POST', `/v1/plan/projects/${project}/members/`, { key, body: { user: member.user.uuid } });
    Object.assign(ids, {
      goal, project, board, state: states.body.results[0].uuid, label: await plan(`/v1/plan/boards/${board}/labels/`, { name: 'bug' }),
      milestone: await plan(`/v1/plan/projects/${project}/milestones/`, { name: 'Beta' }), update: await plan(`/v1/plan/projects/${project}/updates/`, { body: 'Go.' }),
      user: member.user.uuid,
    });
    // A key of its own for the key routes: DELETE would otherwise revoke the key every later request uses.
    const spareKey = await t.request('POST', '/v1/api-keys/', { key, body: { name: 'spare' } });
    Object.assign(ids, {
      '/v1/api-keys': spareKey.body.uuid, '/v1/users': member.user.uuid, '/v1/teams': team.body.uuid,
      '/v1/checkins': checkin.body.uuid, '/v1/followups': checkin.body.uuid, question: detail.body.questions[0].uuid,
      user_uuid: member.user.uuid, '/v1/templates': (templates.body.results ?? templates.body)[0].uuid,
      '/v1/deliveries': deliveries.body.results[0].uuid,
      '/v1/kudos': kudos.body.uuid, '/v1/company-values': value.body.uuid, '/v1/workflows': workflow.body.uuid, run: run.body.run_uuid,
      '/v1/forms': form.body.uuid, response: response.body.uuid,
    });
    expect(Object.values(ids).every((id) => typeof id === 'string' && id.length === 36)).toBe(true);
  });
  afterAll(async () => t.close());

  it('answers every route with junk queries, bodies and headers without a server error', async () => {
    const failures: string[] = [];
    // Deletions last, so the objects they would remove are still there for every other route.
    const routes = t.routes.filter((r) => !r.path.startsWith('/docs')).sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    expect(routes.length).toBeGreaterThan(130);
    for (const route of routes) {
      const prefix = route.path.split('/').slice(0, 3).join('/');
      const path = route.path.replace(/:(\w+)/g, (_, name: string) => (name === 'file' ? 'x.js' : (ids[name] ?? ids[prefix])));
      const keyTaken = accepts(matrixRowOf(route.path), 'api_key');
      const credential = async () => (keyTaken ? { key } : { token: await token() });
      if (route.method === 'GET') {
        for (const query of JUNK_QUERIES) {
          const res = await t.request('GET', `${path}${query}`, await credential());
          if (res.status >= 500) failures.push(`GET ${path}${query} → ${res.status} ${res.text.slice(0, 120)}`);
        }
      } else {
        for (const body of JUNK_BODIES) {
          const res = await t.request(route.method, path, { ...(await credential()), raw: JSON.stringify(body) });
          if (res.status >= 500) failures.push(`${route.method} ${path} ${JSON.stringify(body)} → ${res.status} ${res.text.slice(0, 120)}`);
        }
        for (const junk of JUNK_EXCHANGE_TOKENS.filter(() => takesExchangeToken(route.method, path))) {
          const res = await t.request(route.method, path, { ...(await credential()), headers: { 'x-exchange-token': junk }, body: {} });
          if (res.status >= 500) failures.push(`${route.method} ${path} X-Exchange-Token ${junk} → ${res.status} ${res.text.slice(0, 120)}`);
        }
        const malformed = await t.request(route.method, path, { ...(await credential()), raw: '{"oops": ' });
        if (malformed.status >= 500) failures.push(`${route.method} ${path} malformed → ${malformed.status}`);
        if (path.startsWith('/v1/plan/')) {
          for (const headers of JUNK_HEADERS) {
            const res = await t.request(route.method, path, { key, raw: '{}', headers });
            if (res.status >= 500) failures.push(`${route.method} ${path} ${JSON.stringify(headers)} → ${res.status} ${res.text.slice(0, 120)}`);
          }
          // Destructive calls once more as dry runs: the whole operation runs on junk, and is rolled back.
          if (route.method === 'DELETE' || route.path.endsWith('/archive/')) {
            for (const body of JUNK_BODIES) {
              const res = await t.request(route.method, `${path}?dry_run=true`, { key, raw: JSON.stringify(body) });
              if (res.status >= 500) failures.push(`${route.method} ${path}?dry_run=true ${JSON.stringify(body)} → ${res.status} ${res.text.slice(0, 120)}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
