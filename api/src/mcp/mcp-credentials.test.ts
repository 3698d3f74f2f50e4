import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { DEFAULT_HOURLY_BUDGETS } from '../lib/config.ts';
import { createBoard, seedPlanOrg } from '../../test/plan-fixtures.ts';

/**
 * /mcp admits a request exactly as a REST route does (http/auth.ts): the same credential resolution, the same plan
 * and owner checks on every method (not only the tool calls, which run their REST routes), the same hourly budget,
 * the same attribution headers. The web app's session cookie is not a credential here.
 */
const ACCEPT = { accept: 'application/json, text/event-stream' };
const rpc = (method: string, params: unknown = {}, id = 1) => ({ jsonrpc: '2.0', id, method, params });
const INITIALIZE = rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } });
const LIST_TOOLS = rpc('tools/list');

describe('MCP: the REST admission on every method', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp({ hourlyBudgets: { ...DEFAULT_HOURLY_BUDGETS, reads: 3 } });
  });
  afterEach(async () => t.close());

  it("refuses a deactivated owner's key on initialize and tools/list with REST's 403 api_key_owner_inactive", async () => {
    const acme = await t.seedOrganization();
    const mia = await t.seedUser(acme.org.uuid, { email: 'mia@acme.test' });
    expect((await t.request('POST', '/mcp', { key: mia.key, body: INITIALIZE, headers: ACCEPT })).status).toBe(200);
    expect((await t.request('PATCH', `/v1/users/${mia.user.uuid}/`, { key: acme.adminKey, body: { is_active: false } })).status).toBe(200);
    const rest = await t.request('GET', '/v1/me/', { key: mia.key });
    expect([rest.status, rest.body]).toEqual([403, { detail: 'The owner of this API key is deactivated.', code: 'api_key_owner_inactive' }]);
    for (const message of [INITIALIZE, LIST_TOOLS]) {
      const res = await t.request('POST', '/mcp', { key: mia.key, body: message, headers: ACCEPT });
      expect([message.method, res.status, res.body]).toEqual([message.method, 403, rest.body]);
    }
  });

  it("counts initialize and tools/list against the key's hourly reads; a tool call counts against its route's budget only", async () => {
    const acme = await t.seedOrganization();
    const first = await t.request('POST', '/mcp', { key: acme.adminKey, body: INITIALIZE, headers: ACCEPT });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit')).toBe('"reads";r=2;t=3600');
    // A tool call writes: the writes budget counts it, the reads budget does not.
    const report = rpc('tools/call', { name: 'report', arguments: { agent_name: 'Bot', content: 'Shipped' } });
    const called = await t.request('POST', '/mcp', { key: acme.adminKey, body: report, headers: ACCEPT });
    expect(called.body.result.isError).toBeFalsy();
    expect((await t.request('POST', '/mcp', { key: acme.adminKey, body: LIST_TOOLS, headers: ACCEPT })).status).toBe(200);
    expect((await t.request('GET', '/v1/me/', { key: acme.adminKey })).status).toBe(200);
    const spent = await t.request('POST', '/mcp', { key: acme.adminKey, body: LIST_TOOLS, headers: ACCEPT });
    expect(spent.status).toBe(429);
    expect(spent.body.code).toBe('throttled');
    expect(spent.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await t.request('GET', '/v1/me/', { key: acme.adminKey })).status).toBe(429);
  });

  it("refuses the web app's session cookie (no browser calls /mcp), and still takes a header credential beside it", async () => {
    const acme = await t.seedOrganization();
    const token = await t.seedToken(acme.org.uuid, acme.admin.uuid);
    const refused = { detail: '/mcp takes an API key (X-API-KEY, or Authorization: Bearer) or a CLI token (Authorization: Bearer), not the web app\'s session cookie.', code: 'credential_not_accepted' };
    for (const cookie of [`rollcall_session=${token}`, `__Host-rollcall_session=${token}`]) {
      const res = await t.request('POST', '/mcp', { body: INITIALIZE, headers: { ...ACCEPT, cookie, origin: t.url } });
      expect([cookie.split('=')[0], res.status, res.body]).toEqual([cookie.split('=')[0], 403, refused]);
      expect((await t.request('POST', '/mcp', { token, body: INITIALIZE, headers: { ...ACCEPT, cookie } })).status).toBe(200);
    }
  });

  it('answers bad tools/call params with JSON-RPC -32602 and a short message, never -32603 with a schema dump', async () => {
    const acme = await t.seedOrganization();
    const cases: [string, unknown][] = [
      ['no tool name', { arguments: {} }],
      ['a numeric name', { name: 7 }],
      ['arguments as a string', { name: 'report', arguments: 'x' }],
      ['arguments as an array', { name: 'report', arguments: [] }],
      ['arguments as null', { name: 'report', arguments: null }],
    ];
    for (const [what, params] of cases) {
      const res = await t.request('POST', '/mcp', { key: acme.adminKey, body: rpc('tools/call', params), headers: ACCEPT });
      expect([what, res.status, res.body.error.code]).toEqual([what, 200, -32602]);
      expect(res.body.error.message, what).toMatch(/^Invalid params: /);
      expect(res.body.error.message.length, what).toBeLessThan(120);
      expect(res.body.error.message, what).not.toMatch(/expected|received|\[\s*\{/);
    }
    const missing = await t.request('POST', '/mcp', { key: acme.adminKey, body: rpc('tools/call', { arguments: {} }), headers: ACCEPT });
    expect(missing.body.error.message).toBe('Invalid params: name must be the name of a tool (a string).');
    const stringArgs = await t.request('POST', '/mcp', { key: acme.adminKey, body: rpc('tools/call', { name: 'report', arguments: 'x' }), headers: ACCEPT });
    expect(stringArgs.body.error.message).toBe('Invalid params: arguments must be an object of the tool\'s arguments.');
    // Arguments left out are an empty object, as before.
    const noArgs = await t.request('POST', '/mcp', { key: acme.adminKey, body: rpc('tools/call', { name: 'list_checkins' }), headers: ACCEPT });
    expect(noArgs.body.result.isError).toBeFalsy();
  });
});

describe('MCP attribution headers are the REST ones', () => {
  it('takes X-Dailybot-Agent-Name (the REST alias of X-Service-Agent-Name) as the agent a write carries', async () => {
    const t = await startTestApp();
    try {
      const acme = await seedPlanOrg(t);
      const { board } = await createBoard(t, acme.adminKey);
      await t.request('POST', '/v1/plan/tasks/', { key: acme.adminKey, body: { board: board.uuid, title: 'Seed' } });
      const comment = rpc('tools/call', { name: 'comment_task', arguments: { task: 'PLAT-1', body: 'From the bot' } });
      const res = await t.request('POST', '/mcp', { key: acme.adminKey, body: comment, headers: { ...ACCEPT, 'x-dailybot-agent-name': 'Deploy%20Bot' } });
      expect(res.body.result.isError).toBeFalsy();
      expect(res.body.result.structuredContent.agent_name).toBe('Deploy Bot');
      // It wins over the client's own name from the session id, as X-Service-Agent-Name does.
      const init = await t.request('POST', '/mcp', { key: acme.adminKey, body: INITIALIZE, headers: ACCEPT });
      const sessionId = init.headers.get('mcp-session-id')!;
      const named = await t.request('POST', '/mcp', { key: acme.adminKey, body: comment, headers: { ...ACCEPT, 'mcp-session-id': sessionId, 'x-dailybot-agent-name': 'Deploy%20Bot' } });
      expect(named.body.result.structuredContent.agent_name).toBe('Deploy Bot');
      const unnamed = await t.request('POST', '/mcp', { key: acme.adminKey, body: comment, headers: { ...ACCEPT, 'mcp-session-id': sessionId } });
      expect(unnamed.body.result.structuredContent.agent_name).toBe('probe');
    } finally {
      await t.close();
    }
  });
});
