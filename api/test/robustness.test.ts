import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from './harness.ts';
import type { TestApp } from './harness.ts';
import { tableNames } from './database.ts';
import { PATH_JUNK, bodyCases, queryCases } from './body-samples.ts';
import type { BodyCase } from './body-samples.ts';
import { loadParts } from '../src/openapi/catalog.ts';
import type { Operation } from '../src/http/openapi/types.ts';
import { RATE_LIMIT_SCOPES } from '../src/lib/config.ts';
import { setExchangeCommand } from '../src/admin/commands.ts';
import { matrixRowOf, takesExchangeToken } from '../src/auth/method-matrix.ts';
import { SIGNING_SECRET, SLACK_TOKEN, slackHeaders, startSlackStandIn } from './slack-stand-in.ts';
import type { SlackStandIn } from './slack-stand-in.ts';
import { APP_ID, APP_PASSWORD, TENANT, startTeamsStandIn } from './teams-stand-in.ts';
import type { TeamsStandIn } from './teams-stand-in.ts';
import { PROJECT, SERVICE_ACCOUNT, startGoogleChatStandIn } from './google-chat-stand-in.ts';
import type { GoogleChatStandIn } from './google-chat-stand-in.ts';
import { TEST_CA } from './receivers.ts';
import { MM_COMMAND_TOKEN, MM_TOKEN } from './mattermost-stand-in.ts';
import { APPLICATION_ID, DISCORD_TOKEN, discordKeys, signedHeaders } from './discord-stand-in.ts';

/**
 * Bad input gets a 4xx, never a 5xx, on every route the app serves (enumerated from its routers, so a route added
 * later is covered without touching this file). Bodies are generated from each route's own yup schema (its
 * OpenAPI operation) with fast-check, at a fixed seed and a bounded number per route, each with one bad variant:
 * prototype-named keys at every level (refused in declared objects, kept in free-form ones), JSON nested 100
 * levels, NUL characters, impossible dates in every date field, wrong types. Queries mix each route's parameters
 * and the common ones with junk values; path parameters and the headers an operation documents get junk too, and
 * destructive Plan calls run once more as dry runs. Requests go as an admin (who passes most guards and so
 * reaches the deepest code) with a key holding every scope, with real ids; a route that refuses the key gets the
 * admin's CLI token. Slack's request URLs take no credential but Slack's signature: their junk is signed with the
 * connection's signing secret, so it reaches their code too (unsigned, they answer 401 before anything).
 */
const SEED = 14;
const BODIES_PER_ROUTE = 10;
const QUERIES_PER_ROUTE = 12;
/** Routes tested at once: the app is single-threaded, but this hides the client's half of each round trip. */
const CONCURRENCY = 4;
const GENERIC_BODIES = ['[]', '"text"', '42', 'null', '{"unexpected": true}', '{"oops": '];
/** Values for the request headers an operation documents (a header cannot carry a line break or a NUL at all). */
const HEADER_JUNK = ['short', '%E0%A4%A', 'x'.repeat(200), '__proto__'];
/** X-Exchange-Token values (exchange tokens are on): junk, and one of the right form that names nothing. */
const EXCHANGE_JUNK = [...HEADER_JUNK, `rxt_${'A'.repeat(48)}`];
/** Writes first (they create what the reads and updates then find), deletions last. */
const METHOD_ORDER = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'];

interface Route {
  method: string;
  path: string;
}

describe('robustness: no 5xx on bad input, on any route', () => {
  let t: TestApp;
  let slack: SlackStandIn;
  let teams: TeamsStandIn;
  let googleChat: GoogleChatStandIn;
  const discord = discordKeys();
  let key: string;
  let token: string;
  /** Ids of real objects: by the path before a parameter ("/v1/teams/"), or by the parameter's name. */
  const ids = new Map<string, string>();
  const operations = new Map<string, Operation>();

  /** The first object of each list that has one, under the list's path (ids the seeds did not name). */
  async function discoverIds(routes: Route[]) {
    for (const route of routes.filter((r) => r.method === 'GET' && !r.path.includes(':'))) {
      const res = await t.request('GET', route.path, { key });
      const items = Array.isArray(res.body) ? res.body : Array.isArray(res.body?.results) ? res.body.results : [];
      const id = items[0]?.uuid ?? items[0]?.id;
      if (typeof id === 'string' && !ids.has(route.path)) ids.set(route.path, id);
    }
  }

  beforeAll(async () => {
    const unlimited = Object.fromEntries(RATE_LIMIT_SCOPES.map((scope) => [scope, 1_000_000_000]));
    slack = await startSlackStandIn();
    teams = await startTeamsStandIn();
    googleChat = await startGoogleChatStandIn();
    t = await startTestApp(
      {
        agentSelfRegistration: true, inboundEmailSecret: 'inbound-secret', allowPrivateWebhooks: true, hourlyBudgets: unlimited as never,
        agentEmailHourlyLimit: { free: 1e9, basic: 1e9, pro: 1e9, enterprise: 1e9 }, planMinuteLimits: { reads: 1e9, writes: 1e9, bulk: 1e9, delta: 1e9 },
      },
      { SLACK_API_URL: slack.api, ...teams.env, ...googleChat.env },
      // Webhook URLs resolve at once to a public test address: no DNS from the test, nothing is ever sent.
      // Slack is a local stand-in (report channels and Plan channels ask it).
      { resolve: async () => [{ address: '203.0.113.7', family: 4 }], ca: TEST_CA },
    );
    for (const part of await loadParts()) for (const op of part.operations) operations.set(`${op.method.toUpperCase()} ${op.path}`, op);
    const acme = await t.seedOrganization({ plan: 'enterprise', beta: true });
    // A personal key without explicit scopes: it governs too (auth/policy.ts), so junk reaches every route's body.
    key = (await t.request('POST', '/v1/api-keys/', { key: acme.adminKey, body: { name: 'robustness' } })).body.key;
    token = await t.seedToken(acme.org.uuid, acme.admin.uuid);
    await setExchangeCommand(t.db, t.clock, acme.org.uuid, 'on');
    // Slack, able to receive: its request URLs verify the junk's signature, then read it.
    await t.request('PATCH', '/v1/organization/', { key, body: { platform: { kind: 'slack', bot_token: SLACK_TOKEN, signing_secret: SIGNING_SECRET } } });
    // Another organization on Mattermost, able to receive: its slash command URL checks the junk's token, then reads it.
    const other = await t.seedOrganization({ name: 'Mattermost users' });
    await t.request('PATCH', '/v1/organization/', { key: other.adminKey, body: { platform: { kind: 'mattermost', bot_token: MM_TOKEN, server_url: 'https://mm.example.com', command_token: MM_COMMAND_TOKEN } } });
    // A Teams bot and a Google Chat app, each another organization's: their endpoints verify the junk's token, then read it.
    const teamsOrg = await t.seedOrganization({ name: 'Teams Org' });
    await t.request('PATCH', '/v1/organization/', { key: teamsOrg.adminKey, body: { platform: { kind: 'microsoft_teams', app_id: APP_ID, app_password: APP_PASSWORD, tenant_id: TENANT } } });
    const googleOrg = await t.seedOrganization({ name: 'Google Org' });
    await t.request('PATCH', '/v1/organization/', { key: googleOrg.adminKey, body: { platform: { kind: 'google_chat', service_account: SERVICE_ACCOUNT, project_number: PROJECT } } });
    // A Discord bot, another organization's: its interactions endpoint verifies the junk's Ed25519 signature, then reads it.
    const discordOrg = await t.seedOrganization({ name: 'Discord Org' });
    await t.request('PATCH', '/v1/organization/', { key: discordOrg.adminKey, body: { platform: { kind: 'discord', bot_token: DISCORD_TOKEN, application_id: APPLICATION_ID, public_key: discord.publicKeyHex } } });
    // Real objects, so the junk reaches the code behind the lookups too. The key and user the requests change
    // are not the admin's own (a regenerate or a deactivation would lock the test out).
    const member = await t.seedUser(acme.org.uuid);
    const spare = await t.seedUser(acme.org.uuid);
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
    await t.request('POST', '/v1/invite-user/', { key, body: { email: 'new@acme.test' } });
    await t.request('POST', '/v1/agent-messages/', { key, body: { agent_name: 'robot', content: 'hello', metadata: { constructor: 1 } } });
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
    // Two tasks and a link between them, for the task routes.
    const task = await plan(`/v1/plan/boards/${board}/tasks/`, { title: 'First', owner: member.user.uuid, participants: [member.user.uuid] });
    const second = await plan(`/v1/plan/boards/${board}/tasks/`, { title: 'Second', parent_task: task });
    const relation = await plan(`/v1/plan/tasks/${second}/relations/`, { relation_type: 'blocks', target_task: task });
    const comment = await plan(`/v1/plan/tasks/${task}/comments/`, { body: `<@${member.user.uuid}> look` });
    await plan(`/v1/plan/tasks/${task}/comments/`, { body: 'A reply', parent: comment });
    const attachment = (await t.request('POST', `/v1/plan/tasks/${task}/attachments/presign/`, { key, body: { filename: 'a.png', content_type: 'image/png', size: 10 } })).body.attachment_uuid as string;
    for (const [name, id] of Object.entries({
      goal, project, board, task, relation, comment, attachment, state: states.body.results[0].uuid, label: await plan(`/v1/plan/boards/${board}/labels/`, { name: 'bug' }),
      milestone: await plan(`/v1/plan/projects/${project}/milestones/`, { name: 'Beta' }), update: await plan(`/v1/plan/projects/${project}/updates/`, { body: 'Go.' }),
      user: member.user.uuid,
      '/v1/api-keys/': spare.keyUuid, '/v1/users/': member.user.uuid, '/v1/teams/': team.body.uuid, '/v1/checkins/': checkin.body.uuid,
      '/v1/followups/': checkin.body.uuid, question: detail.body.questions[0].uuid, user_uuid: spare.user.uuid, file: 'swagger-ui.css',
      '/v1/kudos/': kudos.body.uuid, '/v1/company-values/': value.body.uuid, '/v1/workflows/': workflow.body.uuid, run: run.body.run_uuid,
      '/v1/forms/': form.body.uuid, response: response.body.uuid,
    })) ids.set(name, id);
    expect([...ids.values()].every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    await discoverIds(t.routes);
  });
  afterAll(async () => {
    await t.close();
    await slack.close();
    await teams.close();
    await googleChat.close();
  });

  function pathFor(route: Route, junk?: { param: string; value: string }): string {
    return route.path.replace(/:(\w+)/g, (match: string, name: string, offset: number) => {
      if (junk?.param === name) return junk.value;
      const before = route.path.slice(0, offset);
      return ids.get(before) ?? ids.get(name) ?? '0190c6f2-7a3b-7c1d-8e2f-3a4b5c6d7e8f';
    });
  }

  /**
   * Sends as the admin's key (with every scope), or as the admin's CLI token on a route that refuses the key
   * (401 or 403 to the key, another answer to the token: decided once per route).
   */
  const tokenRoutes = new Set<string>();
  const keyRoutes = new Set<string>();
  async function send(route: Route, method: string, path: string, raw?: string, extra: Record<string, string> = {}) {
    const id = `${route.method} ${route.path}`;
    if (matrixRowOf(route.path)?.signedBy === 'slack') {
      const unsigned = await t.request(method, path, { raw, headers: { 'content-type': 'application/json' } });
      if (unsigned.status !== 401) return unsigned;
      return t.request(method, path, { raw, headers: { ...slackHeaders(raw ?? '', t.clock.now().getTime() / 1000), ...extra } });
    }
    const platform = matrixRowOf(route.path)?.signedBy;
    if (platform === 'mattermost') {
      return t.request(method, path, { raw, headers: { 'content-type': 'application/json', authorization: `Token ${MM_COMMAND_TOKEN}`, ...extra } });
    }
    if (platform === 'discord') {
      // A JSON object of junk names the connected application, so it gets past the application check to the code.
      let body = raw;
      try {
        const json: unknown = JSON.parse(raw ?? '');
        if (typeof json === 'object' && json !== null && !Array.isArray(json)) body = JSON.stringify({ ...json, application_id: APPLICATION_ID });
      } catch {
        // not JSON: sent as it is
      }
      return t.request(method, path, { raw: body, headers: { ...signedHeaders(discord, body ?? '', t.clock.now().getTime() / 1000), ...extra } });
    }
    if (platform === 'microsoft_teams' || platform === 'google_chat') {
      const stand = platform === 'microsoft_teams' ? teams : googleChat;
      return t.request(method, path, { raw, headers: { 'content-type': 'application/json', authorization: `Bearer ${stand.token(Math.floor(t.clock.now().getTime() / 1000))}`, ...extra } });
    }
    const headers = { 'x-inbound-secret': 'inbound-secret', ...(raw === undefined ? {} : { 'content-type': 'application/json' }), ...extra };
    if (tokenRoutes.has(id)) return t.request(method, path, { token, raw, headers });
    const res = await t.request(method, path, { key, raw, headers });
    if (res.status !== 401 && res.status !== 403) keyRoutes.add(id);
    if (keyRoutes.has(id)) return res;
    const withToken = await t.request(method, path, { token, raw, headers });
    if (withToken.status === 401 || withToken.status === 403) return res;
    tokenRoutes.add(id);
    return withToken;
  }

  it('answers every route with generated bad bodies, queries and path parameters without a server error', async () => {
    const started = performance.now();
    const failures: string[] = [];
    const reached = new Set<string>();
    let requests = 0;
    const routes = [...t.routes].sort((a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
    expect(routes.length).toBeGreaterThan(130);

    async function exercise(route: Route) {
      const id = `${route.method} ${route.path}`;
      const op = operations.get(id);
      // Each route's own seed: its cases do not depend on the order the routes happen to run in.
      const seed = [...id].reduce((hash, c) => (Math.imul(hash, 31) + c.charCodeAt(0)) | 0, SEED);
      const check = async (what: string, method: string, path: string, raw: string | undefined, expectation: BodyCase['expect'] = 'no-5xx', headers: Record<string, string> = {}) => {
        const res = await send(route, method, path, raw, headers);
        requests++;
        if (res.status !== 401 && res.status !== 403) reached.add(id);
        // 501 not_implemented is an answer the spec gives (a milestone on task creation), not a server error.
        const specified = res.status === 501 && res.body?.code === 'not_implemented';
        const wrong =
          (res.status >= 500 && !specified) ||
          (expectation === 'refused' && res.status < 400) ||
          (expectation === 'bad-request' && res.status !== 400);
        if (wrong) failures.push(`${method} ${path} ${what} → ${res.status} ${res.text.slice(0, 160)}`);
      };
      const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      for (const param of params) {
        for (const value of PATH_JUNK) await check(`(${param} = ${value.slice(0, 20)})`, route.method, pathFor(route, { param, value }), route.method === 'GET' ? undefined : '{}');
      }
      const path = pathFor(route);
      if (route.method === 'GET') {
        for (const query of queryCases((op?.query ?? []).map((q) => q.name), seed, QUERIES_PER_ROUTE)) await check(query, 'GET', `${path}${query}`, undefined);
        return;
      }
      for (const raw of GENERIC_BODIES) await check(raw, route.method, path, raw);
      // Headers the operation reads (Idempotency-Key, X-Service-Agent-Name), with junk values.
      for (const header of op?.headers ?? []) {
        for (const value of HEADER_JUNK) await check(`(${header.name}: ${value.slice(0, 20)})`, route.method, path, '{}', 'no-5xx', { [header.name]: value });
      }
      // The writes an exchange token acts on, with junk tokens.
      if (takesExchangeToken(route.method, route.path)) {
        for (const value of EXCHANGE_JUNK) await check(`(X-Exchange-Token: ${value.slice(0, 20)})`, route.method, path, '{}', 'no-5xx', { 'x-exchange-token': value });
      }
      // A destructive call once more as a dry run: the whole operation runs on junk, and is rolled back.
      if (op?.extensions?.['x-dry-run']) for (const raw of GENERIC_BODIES) await check(`dry run ${raw}`, route.method, `${path}?dry_run=true`, raw);
      if (op?.body) {
        for (const body of bodyCases(op.body, { uuids: [...ids.values()] }, seed, BODIES_PER_ROUTE)) await check(`[${body.what}] ${body.raw.slice(0, 200)}`, route.method, path, body.raw, body.expect);
      }
    }

    for (const method of METHOD_ORDER) {
      const group = routes.filter((r) => r.method === method);
      const queue = [...group];
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        for (let route = queue.shift(); route; route = queue.shift()) await exercise(route);
      }));
      if (method === 'POST') await discoverIds(routes);
    }

    expect(failures).toEqual([]);
    // Every route answered something other than a refusal of the credential: the junk reached its code.
    expect(routes.map((r) => `${r.method} ${r.path}`).filter((id) => !reached.has(id))).toEqual([]);
    expect((await t.request('GET', '/v1/me/', { key })).status).toBe(200);
    const seconds = (performance.now() - started) / 1000;
    console.info(`robustness: ${routes.length} routes, ${requests} requests in ${seconds.toFixed(1)} s (${((seconds * 1000) / routes.length).toFixed(0)} ms a route)`);
  }, 240_000);

  it('lists and shows everything when stored dates cannot be read (rows written before dates were checked strictly)', async () => {
    // Every text column that holds a date or a date-time gets a value no calendar has. Lexically it sorts after
    // any real instant, so nothing (a key, a token) expires because of it.
    const garbage = '9999-99-99T99:99:99Z';
    for (const table of await tableNames(t.db)) {
      if (table.startsWith('knex_') || table.startsWith('sqlite_')) continue;
      const columns = Object.keys(await t.db(table).columnInfo()).filter((c) => /(_at|_on|_date|^date)$/.test(c));
      for (const column of columns) await t.db(table).update({ [column]: garbage }).catch(() => undefined);
    }
    const failures: string[] = [];
    for (const route of t.routes.filter((r) => r.method === 'GET')) {
      for (const query of ['', '?page_size=100']) {
        const path = `${pathFor(route)}${query}`;
        const res = await send(route, 'GET', path);
        if (res.status >= 500) failures.push(`GET ${path} → ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
