import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { callTool, connectMcp, structured } from '../../test/mcp-client.ts';
import { createBoard, seedPlanOrg } from '../../test/plan-fixtures.ts';
import { scopeAreaOf } from '../auth/method-matrix.ts';
import { TOOLS } from './tools.ts';

const DOC = new URL('../../../docs/mcp.md', import.meta.url);

/**
 * Each MCP tool needs the scope of the REST route it runs (docs/mcp.md, "Scopes"): a key holding it is not refused
 * for its scope, a key holding another is refused as over REST, with `required_scope`.
 */
describe('MCP tools and scopes', () => {
  let t: TestApp;
  let adminKey: string;
  let scopeOf: Map<string, string>;
  let args: Record<string, Record<string, unknown>>;
  let boardUuid: string;
  const clients = new Map<string, Client>();

  const keyWith = async (scope: string) => {
    if (!clients.has(scope)) {
      const created = await t.request('POST', '/v1/api-keys/', { key: adminKey, body: { name: scope, scopes: [scope] } });
      clients.set(scope, await connectMcp(t, { 'X-API-KEY': created.body.key }));
    }
    return clients.get(scope)!;
  };

  beforeAll(async () => {
    t = await startTestApp();
    const acme = await seedPlanOrg(t);
    adminKey = acme.adminKey;
    const { board, states } = await createBoard(t, adminKey);
    boardUuid = board.uuid;
    await t.request('POST', '/v1/plan/tasks/', { key: adminKey, body: { board: board.uuid, title: 'Seed' } });
    const document = (await t.request('GET', '/v1/openapi.json')).body;
    // Outside the Plan a tool's scope is its route's area; in the Plan, its operation's (x-plan-scope).
    scopeOf = new Map(TOOLS.map((tool) => {
      const area = scopeAreaOf(tool.method, tool.path)!;
      const openApiPath = tool.path.replace(/:(\w+)/g, '{$1}');
      const scope = area.scope === 'tasks' ? document.paths[openApiPath][tool.method.toLowerCase()]['x-plan-scope'] : area.scope;
      return [tool.name, scope as string];
    }));
    const task = { task: 'PLAT-1' };
    args = {
      report: { agent_name: 'Bot', content: 'x' }, health_check: { agent_name: 'Bot', ok: true }, read_messages: {}, acknowledge_messages: { message_ids: ['1'] },
      send_email: { agent_name: 'Bot', to: ['mia@acme.test'], subject: 'Hi', body_html: '<p>Hi</p>' }, list_checkins: {}, get_checkin: { uuid: board.uuid },
      answer_checkin: { uuid: board.uuid, responses: [{ index: 0, response: 'x' }] }, give_kudos: { content: 'Thanks', receivers: [acme.member.user.uuid] },
      search_tasks: { q: 'seed' }, list_board_tasks: { board: board.uuid }, list_board_states: { board: board.uuid }, board_snapshot: { board: board.uuid },
      board_delta: { board: board.uuid, cursor: 'x' }, get_task: task, create_task: { board: board.uuid, title: 'New' }, update_task: { ...task, priority: 1 },
      move_task: { ...task, state: Object.values(states)[1] }, comment_task: { ...task, body: 'Hi' },
    };
  });
  afterAll(async () => {
    for (const client of clients.values()) await client.close();
    await t.close();
  });

  it('lists each tool under its scope in docs/mcp.md', () => {
    const table = /<!-- mcp-scopes:start -->\n([\s\S]*?)\n<!-- mcp-scopes:end -->/.exec(fs.readFileSync(DOC, 'utf8'))?.[1];
    const scopes = [...new Set(scopeOf.values())];
    const rows = scopes.map((scope) => `| \`${scope}\` | ${TOOLS.filter((tool) => scopeOf.get(tool.name) === scope).map((tool) => `\`${tool.name}\``).join(', ')} |`);
    expect(table).toBe(['| Scope | Tools |', '|---|---|', ...rows].join('\n'));
  });

  it('refuses a tool to a key without its scope, as REST does, and not to a key with it', async () => {
    const wrong: string[] = [];
    for (const tool of TOOLS) {
      const scope = scopeOf.get(tool.name)!;
      const within = await callTool(await keyWith(scope), tool.name, args[tool.name]);
      if (within.isError && structured(within).code === 'insufficient_scope') wrong.push(`${tool.name} with ${scope}: ${JSON.stringify(structured(within))}`);
      const other = scope === 'kudos' ? 'email' : 'kudos';
      const outside = await callTool(await keyWith(other), tool.name, args[tool.name]);
      const expected = { status: 403, code: 'insufficient_scope', detail: `This key's scopes do not include ${scope}.`, extra: { required_scope: scope } };
      if (JSON.stringify(structured(outside)) !== JSON.stringify(expected)) wrong.push(`${tool.name} with ${other}: ${JSON.stringify(structured(outside))}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('needs tasks:read for the board resource, checkins for the stand-up resource, agents for the prompt', async () => {
    const kudos = await keyWith('kudos');
    await expect(kudos.readResource({ uri: `rollcall://plan/boards/${boardUuid}/tasks` })).rejects.toThrow(/insufficient_scope: This key's scopes do not include tasks:read\./);
    await expect(kudos.readResource({ uri: `rollcall://checkins/${boardUuid}/standup` })).rejects.toThrow(/insufficient_scope: This key's scopes do not include checkins\./);
    await expect(kudos.getPrompt({ name: 'standup_from_reports', arguments: {} })).rejects.toThrow(/insufficient_scope: This key's scopes do not include agents\./);
    expect((await (await keyWith('tasks:read')).readResource({ uri: `rollcall://plan/boards/${boardUuid}/tasks` })).contents).toHaveLength(1);
    expect((await (await keyWith('agents')).getPrompt({ name: 'standup_from_reports', arguments: {} })).messages).toHaveLength(1);
  });
});
