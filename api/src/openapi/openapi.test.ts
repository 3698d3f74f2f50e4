import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { EXAMPLES_DIR, loadExamples } from './catalog.ts';
import { documentationValues } from './example-values.ts';
import { CHANGELOG } from '../features/meta/changelog.ts';

type DocumentOperation = {
  operationId: string;
  summary: string;
  description?: string;
  requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
};
import { VERSION } from '../lib/version.ts';

describe('OpenAPI document and service endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('documents exactly the operations the routers serve', async () => {
    const res = await t.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(res.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const served = new Set(t.routes.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`));
    expect([...served].filter((op) => !documented.has(op)), 'served but not documented').toEqual([]);
    expect([...documented].filter((op) => !served.has(op)), 'documented but not served').toEqual([]);
  });

  it('gives every operation a summary, responses, and a request body schema on writes that take one', async () => {
    const { body } = await t.request('GET', '/v1/openapi.json');
    const create = body.paths['/v1/api-keys/'].post;
    expect(create.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { is_agent_key: { type: 'boolean' }, for_user_id: { type: 'string' } },
    });
    expect(create.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ApiKey' });
    for (const ops of Object.values(body.paths as Record<string, Record<string, { summary: string; responses: object }>>)) {
      for (const op of Object.values(ops)) {
        expect(op.summary.length).toBeGreaterThan(3);
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
      }
    }
    const refs = JSON.stringify(body).match(/#\/components\/schemas\/(\w+)/g) ?? [];
    for (const ref of refs) expect(body.components.schemas).toHaveProperty(ref.split('/').pop()!);
  });

  it('shows documentation values in its examples: example.com hosts, lower-case addresses, never the test run\'s ports', () => {
    const leaks = Object.entries(loadExamples()).flatMap(([id, example]) => {
      const { source: _source, ...shown } = example as { source?: string };
      const text = JSON.stringify(shown);
      return JSON.stringify(documentationValues(shown)) === text ? [] : [`${id}: ${text.match(/https?:\/\/127\.0\.0\.1:\d+|[\w.+-]*[A-Z][\w.+-]*@[\w.-]+|[\w.+-]+@[\w.-]+\.test\b/)?.[0]}`];
    });
    expect(leaks).toEqual([]);
    expect(documentationValues({ url: 'https://127.0.0.1:32953/hook', next: 'http://127.0.0.1:41357/v1/x/?page=2', to: ['OTTO@acme.test', 'mia@acme-0-5218952233259092.test'] })).toEqual({
      url: 'https://hooks.example.com/hook',
      next: 'https://rollcall.example.com/v1/x/?page=2',
      to: ['otto@acme.example.com', 'mia@acme.example.com'],
    });
  });

  it('shows no loopback or private address in any string of any example file, keys included', () => {
    // Found here on their own terms, not by the filter of example-values.ts: every IPv4 and IPv6 literal and
    // localhost, checked against the loopback, private, link-local and unique-local ranges.
    const local = new net.BlockList();
    for (const [network, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) local.addSubnet(network, prefix, 'ipv4');
    for (const [network, prefix] of [['::1', 128], ['fc00::', 7], ['fe80::', 10], ['::ffff:0:0', 96]] as const) local.addSubnet(network, prefix, 'ipv6');
    const isLocal = (candidate: string) => {
      const family = net.isIP(candidate);
      return /^localhost$/i.test(candidate) || (family !== 0 && local.check(candidate, family === 4 ? 'ipv4' : 'ipv6'));
    };
    const strings = (value: unknown): string[] =>
      typeof value === 'string' ? [value] : Array.isArray(value) ? value.flatMap(strings) : value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]) : [];
    const files = fs.readdirSync(EXAMPLES_DIR).filter((file) => file.endsWith('.json'));
    expect(files.length).toBeGreaterThan(300);
    const leaks = files.flatMap((file) =>
      strings(JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')))
        .filter((text) => (text.match(/localhost|[\d.]{7,}|[0-9a-f:.]*:[0-9a-f:.]+/gi) ?? []).some((candidate) => isLocal(candidate.replace(/^\.+|\.+$/g, ''))))
        .map((text) => `${file}: ${text}`),
    );
    expect(leaks).toEqual([]);
    // What the filter makes of the forms a test run leaves: a URL's host, a bare address with or without a port.
    expect(documentationValues({ name: '127.0.0.1', error: 'connect ECONNREFUSED 10.0.0.7:443', v6: '[::1]:8080', mapped: '::ffff:127.0.0.1', api: 'http://localhost:8080/v1/', hook: 'https://192.168.1.20/hook', public: '8.8.8.8', at: '2026-11-23T14:57:51.156Z' })).toEqual({
      name: 'hooks.example.com', error: 'connect ECONNREFUSED hooks.example.com', v6: 'hooks.example.com', mapped: 'hooks.example.com', api: 'https://rollcall.example.com/v1/', hook: 'https://hooks.example.com/hook', public: '8.8.8.8', at: '2026-11-23T14:57:51.156Z',
    });
  });

  it('gives every operation a request example (when it takes a body) and a response example, recorded from the tests', async () => {
    const { body } = await t.request('GET', '/v1/openapi.json');
    const missing: string[] = [];
    const ids = new Set<string>();
    for (const [path, ops] of Object.entries(body.paths as Record<string, Record<string, DocumentOperation>>)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(ids.has(op.operationId), `${op.operationId} names two operations`).toBe(false);
        ids.add(op.operationId);
        const name = `${method.toUpperCase()} ${path}`;
        const hasExample = (content: Record<string, { example?: unknown }> | undefined) => Object.values(content ?? {}).some((c) => c.example !== undefined);
        if (op.requestBody && !hasExample(op.requestBody.content)) missing.push(`${name}: no request example`);
        const answers = Object.entries(op.responses).filter(([status, response]) => Number(status) < 400 && response.content);
        if (answers.length && !answers.some(([, response]) => hasExample(response.content))) missing.push(`${name}: no response example`);
      }
    }
    const stale = Object.keys(loadExamples()).filter((id) => !ids.has(id));
    const remedy = 'exercise it in a test through the harness (t.request), then run `npm run examples -w api` (docs/architecture.md, "OpenAPI examples")';
    expect(missing, remedy).toEqual([]);
    expect(stale, 'examples of operations that no longer exist: run `npm run examples -w api`').toEqual([]);
    // Examples are exchanges, not secrets of anyone's: the tests' keys are made up, and no real address appears.
    expect(JSON.stringify(body)).not.toMatch(/CONTRACT|\/work\/|\/tmp\//);
  });

  it('documents the raw request body of POST /v1/inbound-email/', async () => {
    const { body } = await t.request('GET', '/v1/openapi.json');
    const inbound = body.paths['/v1/inbound-email/'].post;
    expect(inbound.requestBody.content['message/rfc822'].schema).toEqual({ type: 'string', maxLength: 2 * 1024 * 1024 });
    expect(inbound.requestBody.content['message/rfc822'].example).toMatch(/^From: /m);
    expect(body.paths['/metrics'].get.responses['200'].content).toHaveProperty('text/plain');
    expect(body.paths['/docs'].get.responses['200'].content).toHaveProperty('text/html');
  });

  it('answers / and /v1/ with where to start instead of a bare 404', async () => {
    for (const path of ['/', '/v1/', '/v1']) {
      const res = await t.request('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.body).toEqual({
        name: 'Rollcall API',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        documentation: `${t.url}/docs`,
        openapi: `${t.url}/v1/openapi.json`,
        changelog: `${t.url}/v1/changelog/`,
      });
    }
  });

  it('documents the credentials each operation takes (the method matrix) and where X-Exchange-Token applies', async () => {
    const { body } = await t.request('GET', '/v1/openapi.json');
    expect(body.security).toEqual([{ ApiKey: [] }, { CliBearer: [] }]);
    expect(body.paths['/v1/platform/status/'].get.security).toEqual([{ ApiKey: [] }]);
    expect(body.paths['/v1/cli/auth/logout/'].post.security).toEqual([{ CliBearer: [] }]);
    expect(body.paths['/v1/cli/auth/request-code/'].post.security).toEqual([]);
    expect(body.paths['/v1/cli/status/'].get.security).toBeUndefined();
    const names = (op: { parameters: { name: string }[] }) => op.parameters.map((p) => p.name);
    expect(names(body.paths['/v1/kudos/'].post)).toContain('X-Exchange-Token');
    expect(names(body.paths['/v1/checkins/{uuid}/responses/'].put)).toContain('X-Exchange-Token');
    expect(names(body.paths['/v1/checkins/{uuid}/responses/'].get)).not.toContain('X-Exchange-Token');
  });

  it('serves the interactive reference at /docs from our own origin', async () => {
    const page = await t.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('/docs/static/swagger-ui-bundle.js');
    expect((await t.request('GET', '/docs/static/swagger-ui.css')).text).toContain('.swagger-ui');
    expect((await t.request('GET', '/docs/init.js')).text).toContain("url: '/v1/openapi.json'");
    const bundle = await fetch(`${t.url}/docs/static/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    expect((await t.request('GET', '/docs/static/package.json')).status).toBe(404);
  });

  it('answers /healthz, /readyz, /metrics and the changelog without a credential', async () => {
    expect((await t.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await t.request('GET', '/readyz')).body).toEqual({ status: 'ready', database: 'ok', pending_migrations: 0 });
    await t.request('GET', '/v1/me/');
    const metrics = await t.request('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/rollcall_http_requests_total\{method="GET",route="\/v1\/me\/",status="401"\} \d+/);
    expect(metrics.text).toContain('process_resident_memory_bytes');
    const changelog = await t.request('GET', '/v1/changelog/');
    expect(changelog.status).toBe(200);
    expect(changelog.body).toMatchObject({ count: expect.any(Number), next: null, previous: null });
    expect(changelog.body.results[0]).toMatchObject({ version: CHANGELOG[0].version, changes: expect.any(Array) });
    const document = (await t.request('GET', '/v1/openapi.json')).body;
    expect(document.info.version).toBe(CHANGELOG[0].version);
    // The changelog says what the API contains: every documented path, up to its first parameter.
    const said = JSON.stringify(changelog.body.results);
    const paths = Object.keys(document.paths as Record<string, unknown>);
    expect([...new Set(paths.map((path) => path.split('{')[0]))].filter((root) => !said.includes(root))).toEqual([]);
    expect(changelog.body.results.map((e: { version: string }) => e.version)).toEqual(CHANGELOG.map((e) => e.version).slice(0, 50));
    expect(VERSION, 'api/package.json names the newest release').toBe(CHANGELOG[0].version);
  });
});
