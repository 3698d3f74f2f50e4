import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { callTool as call, connectMcp as connect, structured } from '../../test/mcp-client.ts';
import { createBoard, seedPlanOrg } from '../../test/plan-fixtures.ts';
import type { PlanOrg } from '../../test/plan-fixtures.ts';

describe('MCP server at /mcp (Streamable HTTP, stateless): tools over the REST routes', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let client: Client;
  beforeEach(async () => {
    t = await startTestApp();
    acme = await seedPlanOrg(t);
    client = await connect(t, { 'X-API-KEY': acme.adminKey });
  });
  afterEach(async () => {
    await client.close();
    await t.close();
  });

  it('initializes and lists the tools, with truthful annotations and input schemas from the routes\' yup schemas', async () => {
    expect(client.getServerVersion()?.name).toBe('rollcall');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'report', 'health_check', 'read_messages', 'acknowledge_messages', 'send_email', 'list_checkins', 'get_checkin', 'answer_checkin', 'give_kudos',
      'search_tasks', 'list_board_tasks', 'list_board_states', 'board_snapshot', 'board_delta', 'get_task', 'create_task', 'update_task', 'move_task', 'comment_task',
    ]);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.get_task.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(byName.report.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(byName.update_task.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    expect(byName.report.inputSchema.required).toEqual(expect.arrayContaining(['agent_name', 'content']));
    expect((byName.report.inputSchema.properties as Record<string, any>).content).toMatchObject({ type: 'string', maxLength: 50_000 });
    expect(byName.get_task.inputSchema.required).toEqual(['task']);
    // The access log and the metrics see each /mcp request with the status it was answered with.
    const lines = t.logs.filter((line) => line.includes('"path":"/mcp"'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line.includes('"status":200') || line.includes('"status":202'))).toBe(true);
    const metrics = await t.request('GET', '/metrics');
    expect(metrics.text).toMatch(/route="\/mcp"/);
  });

  it('reports, checks in health, reads and acknowledges messages: the same bodies as the REST calls', async () => {
    const reported = await call(client, 'report', { agent_name: 'Deploy Bot', content: 'Shipped v2', is_milestone: true });
    expect(reported.isError).toBeFalsy();
    expect(structured(reported)).toMatchObject({ agent_name: 'Deploy Bot', content: 'Shipped v2', is_milestone: true, pending_messages: [] });
    expect(reported.content).toEqual([{ type: 'text', text: expect.stringContaining('Deploy Bot') }]);
    const listed = await t.request('GET', '/v1/agent-reports/', { key: acme.adminKey });
    // The POST answer alone carries pending_messages and co_authors_unresolved (what this call left unresolved).
    const { pending_messages: _pending, co_authors_unresolved: _unresolved, ...report } = structured(reported);
    expect(listed.body.results).toEqual([report]);

    const health = await call(client, 'health_check', { agent_name: 'Deploy Bot', ok: true, message: 'green' });
    expect(health.isError).toBeFalsy();
    const reading = await t.request('GET', '/v1/agent-health/?agent_name=Deploy%20Bot', { key: acme.adminKey });
    expect(reading.status).toBe(200);

    const sent = await t.request('POST', '/v1/agent-messages/', { key: acme.adminKey, body: { agent_name: 'Deploy Bot', content: 'Please rerun CI' } });
    expect(sent.status).toBe(201);
    const messages = await call(client, 'read_messages', { agent_name: 'Deploy Bot' });
    const rest = await t.request('GET', '/v1/agent-messages/?agent_name=Deploy%20Bot', { key: acme.adminKey });
    expect(structured(messages)).toEqual({ count: 1, results: rest.body });
    const acknowledged = await call(client, 'acknowledge_messages', { message_ids: [sent.body.id ?? sent.body.uuid] });
    expect(structured(acknowledged)).toEqual({ updated: 1 });
  });

  it('picks up Plan work: create, get, list, search, update with version, move, comment', async () => {
    const { board, states } = await createBoard(t, acme.adminKey);
    const created = await call(client, 'create_task', { board: board.uuid, title: 'Rotate the keys' });
    expect(created.isError).toBeFalsy();
    const task = structured(created);
    expect(task).toMatchObject({ key: 'PLAT-1', title: 'Rotate the keys', version: 1 });

    const got = await call(client, 'get_task', { task: 'PLAT-1' });
    const rest = await t.request('GET', '/v1/plan/tasks/PLAT-1/', { key: acme.adminKey });
    expect(structured(got)).toEqual(rest.body);

    const listed = await call(client, 'list_board_tasks', { board: board.uuid, search: 'rotate' });
    expect(structured(listed)).toMatchObject({ count: 1, results: [expect.objectContaining({ key: 'PLAT-1' })] });
    const found = await call(client, 'search_tasks', { q: 'rotate', type: 'task' });
    expect(structured(found).count).toBe(1);

    const updated = await call(client, 'update_task', { task: 'PLAT-1', title: 'Rotate the signing keys', version: 1 });
    expect(structured(updated)).toMatchObject({ title: 'Rotate the signing keys', version: 2 });
    const stale = await call(client, 'update_task', { task: 'PLAT-1', title: 'Again', version: 1 });
    expect(stale.isError).toBe(true);
    expect(structured(stale)).toMatchObject({ status: 409, code: 'version_conflict' });

    const columns = await call(client, 'list_board_states', { board: board.uuid });
    expect(structured(columns).results.map((s: { uuid: string }) => s.uuid)).toEqual(Object.values(states));
    const doing = Object.values(states)[1];
    const moved = await call(client, 'move_task', { task: 'PLAT-1', state: doing, version: 2 });
    expect(moved.isError).toBeFalsy();
    expect(structured(moved).state).toBe(doing);
    const staleMove = await call(client, 'move_task', { task: 'PLAT-1', state: doing, version: 1 });
    expect(structured(staleMove)).toMatchObject({ status: 409, code: 'version_conflict' });

    const snapshot = await call(client, 'board_snapshot', { board: board.uuid });
    const restSnapshot = await t.request('GET', `/v1/plan/boards/${board.uuid}/board/`, { key: acme.adminKey });
    expect(structured(snapshot)).toEqual(restSnapshot.body);
    const cursor = structured(snapshot).delta_cursor;
    expect(typeof cursor).toBe('string');

    const commented = await call(client, 'comment_task', { task: 'PLAT-1', body: 'Done on staging', idempotency_key: 'comment-staging-1' });
    expect(commented.isError).toBeFalsy();
    // A retry with the same Idempotency-Key answers as the first call did, and comments once.
    const retried = await call(client, 'comment_task', { task: 'PLAT-1', body: 'Done on staging', idempotency_key: 'comment-staging-1' });
    expect(structured(retried)).toEqual(structured(commented));
    const comments = await t.request('GET', '/v1/plan/tasks/PLAT-1/comments/', { key: acme.adminKey });
    expect(comments.body.results).toEqual([structured(commented)]);
    await call(client, 'update_task', { task: 'PLAT-1', priority: 2 });
    const delta = await call(client, 'board_delta', { board: board.uuid, cursor });
    const restDelta = await t.request('GET', `/v1/plan/boards/${board.uuid}/delta/?cursor=${encodeURIComponent(cursor)}`, { key: acme.adminKey });
    expect(delta.isError).toBeFalsy();
    expect(structured(delta)).toEqual(restDelta.body);
    expect(structured(await call(client, 'board_delta', { board: board.uuid }))).toMatchObject({ status: 400 });
  });

  it('lists a person\'s check-ins with today\'s summary, answers one, gives kudos; agent keys get the REST refusal', async () => {
    const checkin = await t.request('POST', '/v1/checkins/create/', {
      key: acme.adminKey,
      body: { name: 'Daily', schedule: { days: [2], timezone: 'UTC' }, participants: { user_uuids: [acme.member.user.uuid] }, questions: [{ question_type: 'text', question: 'Done?' }] },
    });
    expect(checkin.status).toBe(201);
    const mia = await connect(t, { 'X-API-KEY': acme.member.key });
    try {
      const listed = await call(mia, 'list_checkins');
      const rest = await t.request('GET', '/v1/checkins/?active=true&include_summary=true', { key: acme.member.key });
      expect(structured(listed)).toEqual(rest.body);
      expect(structured(listed).results[0]).toMatchObject({ response_completed: false, summary: { pending: 1 } });
      const answered = await call(mia, 'answer_checkin', { uuid: checkin.body.uuid, responses: [{ index: 0, response: 'Shipped' }] });
      expect(answered.isError).toBeFalsy();
      const after = await call(mia, 'list_checkins');
      expect(structured(after).results[0]).toMatchObject({ response_completed: true, summary: { responded: 1 } });
      const kudos = await call(mia, 'give_kudos', { content: 'Thanks for the review', receivers: [acme.admin.uuid] });
      expect(kudos.isError).toBeFalsy();
    } finally {
      await mia.close();
    }
    const bot = await connect(t, { 'X-API-KEY': acme.agentKey });
    try {
      const refused = await call(bot, 'give_kudos', { content: 'Thanks', receivers: [acme.admin.uuid] });
      const rest = await t.request('POST', '/v1/kudos/', { key: acme.agentKey, body: { content: 'Thanks', receivers: [acme.admin.uuid] } });
      expect(rest.status).toBe(403);
      expect(structured(refused)).toEqual({ status: 403, ...rest.body });
      const email = { agent_name: 'Bot', to: ['nobody@elsewhere.test'], subject: 'Hi', body_html: '<p>Hi</p>' };
      const mailed = await call(bot, 'send_email', email);
      const restMail = await t.request('POST', '/v1/agent-email/send/', { key: acme.agentKey, body: email });
      expect(restMail.status).toBe(201);
      expect(mailed.isError).toBeFalsy();
      expect(Object.keys(structured(mailed)).sort()).toEqual(Object.keys(restMail.body).sort());
      expect(structured(mailed)).toMatchObject({ sent_count: 1, total_recipients: 1 });
    } finally {
      await bot.close();
    }
  });

  it('turns API refusals into tool errors with code and detail, and bad input never into a protocol error', async () => {
    const missing = await call(client, 'report', { agent_name: 'Bot' });
    expect(missing.isError).toBe(true);
    expect(structured(missing)).toMatchObject({ status: 400, code: 'validation_error', fields: { content: ['This field is required.'] } });

    const unknownBody = await call(client, 'report', { agent_name: 'Bot', content: 'x', colour: 'red' });
    expect(structured(unknownBody)).toMatchObject({ status: 400, code: 'unknown_field' });
    const unknownArgument = await call(client, 'get_task', { task: 'PLAT-1', colour: 'red' });
    expect(structured(unknownArgument)).toEqual({ status: 400, code: 'unknown_field', detail: 'Unknown field: colour.', extra: { parameter: 'colour' } });
    const noTask = await call(client, 'get_task', { task: { nested: true } });
    expect(structured(noTask)).toMatchObject({ status: 400, code: 'validation_error', fields: { task: ['This field is required.'] } });
    const traversal = await call(client, 'get_task', { task: '../../agent-reports' });
    expect(structured(traversal)).toMatchObject({ status: 404, code: 'not_found' });
    const unknownTool = await call(client, 'drop_tables');
    expect(structured(unknownTool)).toMatchObject({ code: 'unknown_tool' });
    // A `__proto__` argument is an own key like any other, and the route refuses it as REST does: no pollution, no crash.
    const proto = await call(client, 'report', JSON.parse('{"__proto__": {"x": 1}, "agent_name": "Bot", "content": "x"}'));
    const rest = await t.request('POST', '/v1/agent-reports/', { key: acme.adminKey, raw: '{"__proto__": {"x": 1}, "agent_name": "Bot", "content": "x"}', headers: { 'content-type': 'application/json' } });
    expect(structured(proto)).toEqual({ status: rest.status, ...rest.body });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('applies the route\'s scopes and keeps organizations apart: the same refusals as REST', async () => {
    await createBoard(t, acme.adminKey);
    await t.request('POST', '/v1/plan/tasks/', { key: acme.adminKey, body: { board: (await t.request('GET', '/v1/plan/boards/', { key: acme.adminKey })).body.results[0].uuid, title: 'Ours' } });
    const scoped = await t.request('POST', '/v1/api-keys/', { key: acme.adminKey, body: { name: 'reader', scopes: ['tasks:read'] } });
    const reader = await connect(t, { 'X-API-KEY': scoped.body.key ?? scoped.body.secret });
    try {
      expect(structured(await call(reader, 'get_task', { task: 'PLAT-1' })).key).toBe('PLAT-1');
      const refused = await call(reader, 'comment_task', { task: 'PLAT-1', body: 'hi' });
      const rest = await t.request('POST', '/v1/plan/tasks/PLAT-1/comments/', { key: scoped.body.key ?? scoped.body.secret, body: { body: 'hi' } });
      expect(rest.status).toBe(403);
      expect(structured(refused)).toEqual({ status: 403, ...rest.body });
    } finally {
      await reader.close();
    }

    const globex = await seedPlanOrg(t, { name: 'Globex' });
    const outsider = await connect(t, { 'X-API-KEY': globex.adminKey });
    try {
      const task = (await t.request('GET', '/v1/plan/tasks/PLAT-1/', { key: acme.adminKey })).body;
      const theirs = await call(outsider, 'get_task', { task: task.uuid });
      const rest = await t.request('GET', `/v1/plan/tasks/${task.uuid}/`, { key: globex.adminKey });
      expect(rest.status).toBe(404);
      expect(structured(theirs)).toEqual({ status: 404, ...rest.body });
    } finally {
      await outsider.close();
    }
  });

  it('refuses a request without a known credential with the API\'s 401, and GET with 405', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { accept: 'application/json, text/event-stream' };
    const absent = await t.request('POST', '/mcp', { body: initialize, headers });
    expect(absent.status).toBe(401);
    expect(absent.body).toMatchObject({ code: 'credential_absent' });
    const wrong = await t.request('POST', '/mcp', { body: initialize, headers, key: 'rk_live_0000000000000000000000000000000000000000' });
    expect(wrong.status).toBe(401);
    const get = await t.request('GET', '/mcp', { key: acme.adminKey, headers });
    expect(get.status).toBe(405);
    expect(get.body.code).toBe('method_not_allowed');
  });

  it('carries a 429\'s retry time', async () => {
    const limited = await startTestApp({ planMinuteLimits: { reads: 1, writes: 100, bulk: 10, delta: 10 } });
    try {
      const org = await seedPlanOrg(limited);
      const limitedClient = await connect(limited, { 'X-API-KEY': org.adminKey });
      await call(limitedClient, 'search_tasks', { q: 'anything' });
      const throttled = await call(limitedClient, 'search_tasks', { q: 'anything' });
      expect(throttled.isError).toBe(true);
      expect(structured(throttled)).toMatchObject({ status: 429, code: 'throttled', retry_after: expect.any(Number) });
      await limitedClient.close();
    } finally {
      await limited.close();
    }
  });
});
