import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestApp } from './harness.ts';
import { createBoard, seedPlanOrg } from './plan-fixtures.ts';
import type { TestApp } from './harness.ts';

const CLI = path.resolve(import.meta.dirname, '../src/cli.ts');

/** The runner's environment without a credential or server of its own, and a home without a session. */
function bridgeEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !name.startsWith('ROLLCALL_')) env[name] = value;
  return { ...env, XDG_CONFIG_HOME: home, HOME: home };
}

describe('rollcall mcp: the stdio bridge to /mcp', () => {
  let t: TestApp;
  let home: string;
  beforeEach(async () => {
    t = await startTestApp();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-mcp-home-'));
  });
  afterEach(async () => {
    await t.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  const spawnBridge = (args: string[], extra: Record<string, string> = {}) =>
    new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], env: { ...bridgeEnv(home), ...extra }, stderr: 'pipe' });

  it('forwards an agent\'s session over stdio with --url and --key: initialize, list tools, report', async () => {
    const { adminKey } = await t.seedOrganization();
    const client = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await client.connect(spawnBridge(['--url', t.url, '--key', adminKey]));
    try {
      expect(client.getServerVersion()?.name).toBe('rollcall');
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('report');
      const result = (await client.callTool({ name: 'report', arguments: { agent_name: 'Stdio Bot', content: 'Bridged' } })) as CallToolResult;
      expect(result.structuredContent).toMatchObject({ agent_name: 'Stdio Bot', content: 'Bridged' });
      const listed = await t.request('GET', '/v1/agent-reports/', { key: adminKey });
      expect(listed.body.count).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('names the agent of Plan writes with ROLLCALL_AGENT_NAME, any UTF-8 name intact', async () => {
    const acme = await seedPlanOrg(t);
    const { board } = await createBoard(t, acme.adminKey);
    await t.request('POST', '/v1/plan/tasks/', { key: acme.adminKey, body: { board: board.uuid, title: 'Seed' } });
    const client = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await client.connect(spawnBridge(['--url', t.url, '--key', acme.adminKey], { ROLLCALL_AGENT_NAME: 'Café bot' }));
    try {
      const result = (await client.callTool({ name: 'comment_task', arguments: { task: 'PLAT-1', body: 'Bridged' } })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
      expect((result.structuredContent as { agent_name: string }).agent_name).toBe('Café bot');
    } finally {
      await client.close();
    }
  });

  /** The bridge with `requests` piped in and stdin closed right after, as a script or a person trying it would. */
  const pipeThrough = (args: string[], requests: object[]) =>
    new Promise<{ code: number | null; answers: { id: number; result?: { serverInfo?: { name: string } }; error?: { message: string } }[]; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, 'mcp', ...args], { env: bridgeEnv(home) });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, answers: stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line)), stderr }));
      child.stdin.end(requests.map((request) => `${JSON.stringify(request)}\n`).join(''));
    });

  it('answers the requests piped in before stdin closed, a good key\'s and a refused one\'s, instead of aborting them', async () => {
    const { adminKey } = await t.seedOrganization();
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'script', version: '1' } } };
    const good = await pipeThrough(['--url', t.url, '--key', adminKey], [initialize]);
    expect({ code: good.code, stderr: good.stderr, ids: good.answers.map((a) => a.id), server: good.answers[0]?.result?.serverInfo?.name }).toEqual({ code: 0, stderr: '', ids: [1], server: 'rollcall' });
    const said = 'the API key from --key is malformed: an API key is rk_ and 40 letters and digits (credential_malformed).';
    const refused = await pipeThrough(['--url', t.url, '--key', 'rk_wrong'], [initialize]);
    expect(refused).toEqual({ code: 0, answers: [{ jsonrpc: '2.0', id: 1, error: { code: -32000, message: said } }], stderr: `rollcall mcp: ${said}\n` });
  });

  it('answers a request with an error saying the key is malformed, or unknown to the server', async () => {
    const refusals = {
      rk_wrong: 'the API key from --key is malformed: an API key is rk_ and 40 letters and digits (credential_malformed).',
      [`rk_${'0'.repeat(40)}`]: `the API key from --key is unknown to ${t.url}: revoked, regenerated, or made on another server; check the key, or create a new one (invalid_credentials).`,
    };
    for (const [key, said] of Object.entries(refusals)) {
      const client = new Client({ name: 'stdio-agent', version: '1.0.0' });
      const transport = spawnBridge(['--url', t.url, '--key', key]);
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await expect(client.connect(transport)).rejects.toThrow(`MCP error -32000: ${said}`);
      await client.close();
      // A person running it by hand reads the same line.
      expect(stderr).toBe(`rollcall mcp: ${said}\n`);
    }
  });
});
