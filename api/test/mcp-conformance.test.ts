import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { startTestApp } from './harness.ts';
import { seedPlanOrg } from './plan-fixtures.ts';

const run = promisify(execFile);
const CONFORMANCE = path.join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'conformance');
const BASELINE = path.join(import.meta.dirname, 'mcp-conformance-baseline.yml');

/**
 * The published MCP conformance suite (@modelcontextprotocol/conformance, server mode) against a started server's
 * /mcp, offline (loopback only). Its CLI takes no request headers, so a loopback proxy adds the API key, as an
 * agent's configuration would. The scenarios failed by design are in the baseline beside this file, each with its
 * reason; the CLI exits non-zero on any other failure and on a baseline entry that passes.
 */
it('passes the MCP conformance suite (server scenarios), the baseline aside', async () => {
  const t = await startTestApp();
  const acme = await seedPlanOrg(t);
  const target = new URL(t.url);
  const proxy = http.createServer((req, res) => {
    const headers = { ...req.headers, host: target.host, 'x-api-key': acme.adminKey };
    const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const output = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-conformance-'));
  try {
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
    const result = await run(CONFORMANCE, ['server', '--url', url, '--expected-failures', BASELINE, '--output-dir', output], { timeout: 240_000, cwd: output })
      .then(({ stdout }) => ({ code: 0, stdout }))
      .catch((error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, stdout: `${error.stdout}\n${error.stderr}` }));
    const summary = result.stdout.slice(result.stdout.lastIndexOf('=== SUMMARY ==='));
    expect(result.code, summary).toBe(0);
    // The scenarios Rollcall passes: initialize, ping, listing tools, resources and prompts, tool errors, SSE.
    for (const scenario of ['server-initialize', 'ping', 'tools-list', 'tools-call-error', 'resources-list', 'prompts-list']) {
      expect(summary).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
    }
  } finally {
    proxy.close();
    fs.rmSync(output, { recursive: true, force: true });
    await t.close();
  }
}, 300_000);
