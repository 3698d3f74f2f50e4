import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestApp } from '../../test/harness.ts';
import { callTool as call, connectMcp as connect, structured } from '../../test/mcp-client.ts';
import { createBoard, seedPlanOrg } from '../../test/plan-fixtures.ts';

describe('MCP robustness: any tool input, any body to /mcp, never a 5xx or a protocol crash', () => {
  it('answers generated arguments for every tool with a result or a tool error below 500', async () => {
    const t = await startTestApp();
    try {
      const acme = await seedPlanOrg(t);
      const { board } = await createBoard(t, acme.adminKey);
      await t.request('POST', '/v1/plan/tasks/', { key: acme.adminKey, body: { board: board.uuid, title: 'Seed' } });
      const client = await connect(t, { 'X-API-KEY': acme.adminKey });
      const { tools } = await client.listTools();
      for (const tool of tools) {
        const names = [...Object.keys(tool.inputSchema.properties ?? {}), '__proto__', 'constructor', 'junk'];
        const args = fc.dictionary(fc.constantFrom(...names), fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom(board.uuid, 'PLAT-1', '../..', '%00', '2026-02-30')), { maxKeys: 5 });
        for (const sample of fc.sample(args, { numRuns: 8, seed: 30 })) {
          const result = await call(client, tool.name, sample);
          if (result.isError) expect(structured(result).status, `${tool.name} ${JSON.stringify(sample)}`).toBeLessThan(500);
        }
      }
      await client.close();
      const junk = ['{}', '[]', '{"jsonrpc":"2.0"}', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"report","arguments":"x"}}', '{"oops": '];
      for (const raw of junk) {
        const res = await t.request('POST', '/mcp', { key: acme.adminKey, raw, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } });
        expect(res.status, raw).toBeLessThan(500);
      }
    } finally {
      await t.close();
    }
  }, 120_000);
});

describe('MCP resources and prompts, through the REST routes', () => {
  it('reads a board\'s tasks as a resource and builds the stand-up prompt from today\'s reports; refusals carry the code', async () => {
    const t = await startTestApp();
    try {
      const acme = await seedPlanOrg(t);
      const { board } = await createBoard(t, acme.adminKey);
      await t.request('POST', '/v1/plan/tasks/', { key: acme.adminKey, body: { board: board.uuid, title: 'Seed' } });
      await t.request('POST', '/v1/agent-reports/', { key: acme.adminKey, body: { agent_name: 'Deploy Bot', content: 'Deployed v2' } });
      const client = await connect(t, { 'X-API-KEY': acme.adminKey });
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual(['rollcall://plan/boards/{board}/tasks', 'rollcall://checkins/{checkin}/standup']);
      const uri = `rollcall://plan/boards/${board.uuid}/tasks`;
      const read = await client.readResource({ uri });
      const rest = await t.request('GET', `/v1/plan/boards/${board.uuid}/tasks/?page_size=100`, { key: acme.adminKey });
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual(rest.body);
      await expect(client.readResource({ uri: 'rollcall://plan/boards/0190c8f4-0000-7000-8000-000000000000/tasks' })).rejects.toThrow(/not_found/);

      // Today's stand-up of a check-in: its answers of the day in the check-in's time zone (Tokyo is already a day
      // ahead of UTC late in the UTC day), exactly what the REST list answers for that day.
      const created = await t.request('POST', '/v1/checkins/create/', {
        key: acme.adminKey,
        body: { name: 'Daily', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'Asia/Tokyo' }, participants: { user_uuids: [acme.member.user.uuid] }, questions: [{ question_type: 'text', question: 'What did you do?' }] },
      });
      expect(created.status).toBe(201);
      const checkin = created.body.uuid as string;
      expect((await t.request('POST', `/v1/checkins/${checkin}/responses/`, { key: acme.member.key, body: { responses: [{ index: 0, response: 'Shipped the importer' }] } })).status).toBe(201);
      const standup = await client.readResource({ uri: `rollcall://checkins/${checkin}/standup` });
      const day = (await t.request('GET', `/v1/checkins/${checkin}/responses/`, { key: acme.adminKey })).body.results[0].response_date as string;
      const listed = await t.request('GET', `/v1/checkins/${checkin}/responses/?date_start=${day}&date_end=${day}&page_size=100`, { key: acme.adminKey });
      expect(listed.body.count).toBe(1);
      expect(JSON.parse((standup.contents[0] as { text: string }).text)).toEqual(listed.body);
      await expect(client.readResource({ uri: 'rollcall://checkins/0190c8f4-0000-7000-8000-000000000000/standup' })).rejects.toThrow(/not_found/);
      await expect(client.readResource({ uri: 'rollcall://checkins/x y/standup' })).rejects.toThrow(/not_found/);

      const prompt = await client.getPrompt({ name: 'standup_from_reports', arguments: { agent_name: 'Deploy Bot' } });
      expect(prompt.messages[0].content).toMatchObject({ type: 'text', text: expect.stringContaining('Deploy Bot: Deployed v2') });
      await client.close();
    } finally {
      await t.close();
    }
  });
});

describe('MCP beside the site', () => {
  it('keeps /mcp the API\'s when the container serves the site too (GET answers 405, not a site page)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-mcp-site-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<h1>site</h1>');
    fs.writeFileSync(path.join(dir, '404.html'), '<h1>missing</h1>');
    const t = await startTestApp({ siteDir: dir });
    try {
      const { adminKey } = await t.seedOrganization();
      const get = await t.request('GET', '/mcp', { key: adminKey });
      expect(get.status).toBe(405);
      const client = await connect(t, { 'X-API-KEY': adminKey });
      expect((await client.listTools()).tools.length).toBeGreaterThan(10);
      await client.close();
    } finally {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('MCP attribution: the client\'s own name, when it names no agent', () => {
  it('attributes Plan writes to clientInfo.name (carried in the Mcp-Session-Id given at initialize), unless a header names the agent or the key is an agent\'s', async () => {
    const t = await startTestApp();
    try {
      const acme = await seedPlanOrg(t);
      await createBoard(t, acme.adminKey);
      await t.request('POST', '/v1/plan/tasks/', { key: acme.adminKey, body: { board: (await t.request('GET', '/v1/plan/boards/', { key: acme.adminKey })).body.results[0].uuid, title: 'Seed' } });
      const commentAs = async (headers: Record<string, string>, clientName: string) => {
        const client = await connect(t, headers, clientName);
        try {
          const result = await call(client, 'comment_task', { task: 'PLAT-1', body: `From ${clientName}` });
          expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
          return structured(result).agent_name;
        } finally {
          await client.close();
        }
      };
      expect(await commentAs({ 'X-API-KEY': acme.adminKey }, 'Claude Code')).toBe('Claude Code');
      expect(await commentAs({ 'X-API-KEY': acme.adminKey, 'X-Service-Agent-Name': 'Deploy%20Bot' }, 'Claude Code')).toBe('Deploy Bot');
      // An agent key is the agent itself: no name is added, and its writes are not refused for one.
      expect(await commentAs({ 'X-API-KEY': acme.agentKey }, 'Claude Code')).toBe(null);
      // A client name Rollcall would refuse as an agent name gets no session id, and attributes nothing.
      expect(await commentAs({ 'X-API-KEY': acme.adminKey }, 'bad<name>')).toBe(null);

      const init = (name: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version: '1' } } });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const initialized = await t.request('POST', '/mcp', { key: acme.adminKey, raw: init('Cursor'), headers });
      expect(initialized.status).toBe(200);
      expect(initialized.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}\.Q3Vyc29y$/);
      // A session id that is not one of ours (or holds no valid name) is ignored, never refused: the server keeps no sessions.
      const comment = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'comment_task', arguments: { task: 'PLAT-1', body: 'x' } } });
      for (const sessionId of ['nonsense', 'a.%%%', `x.${Buffer.from('bad<name>').toString('base64url')}`]) {
        const res = await t.request('POST', '/mcp', { key: acme.adminKey, raw: comment, headers: { ...headers, 'mcp-session-id': sessionId } });
        expect(res.status, sessionId).toBe(200);
        expect(res.body.result.structuredContent.agent_name, sessionId).toBe(null);
      }
    } finally {
      await t.close();
    }
  });
});
