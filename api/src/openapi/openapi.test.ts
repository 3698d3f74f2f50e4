import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';

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

  it('serves the interactive reference at /docs from our own origin', async () => {
    const page = await t.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('/docs/static/swagger-ui-bundle.js');
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
    expect(changelog.body.results[0]).toMatchObject({ version: '1.2.0', changes: expect.any(Array) });
  });
});
