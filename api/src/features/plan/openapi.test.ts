import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { loadParts } from '../../openapi/catalog.ts';
import { planScopeTable } from '../../http/plan/openapi.ts';

describe('the Plan in the OpenAPI document', () => {
  let t: TestApp;
  let doc: { info: { description: string }; tags: unknown; paths: Record<string, Record<string, Record<string, unknown>>> };
  beforeAll(async () => {
    t = await startTestApp();
    doc = (await t.request('GET', '/v1/openapi.json')).body;
  });
  afterAll(async () => t.close());

  it('marks every Plan operation beta, with its scope, its headers and its refusals', async () => {
    // Beside them, only the presigned upload's credential-less door (its URL's token is the permission).
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/v1/plan/'))
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })))
      .filter(({ op }) => (op.security as unknown[] | undefined)?.length !== 0);
    const declared = (await loadParts()).flatMap((part) => part.operations).filter((op) => op.path.startsWith('/v1/plan/') && op.auth !== false);
    expect(operations).toHaveLength(declared.length);
    for (const { path, method, op } of operations) {
      expect(op['x-beta'], `${method} ${path}`).toBe(true);
      expect(['tasks:read', 'tasks:write', 'tasks:admin']).toContain(op['x-plan-scope']);
      const headers = (op.parameters as { name: string; in: string }[]).filter((p) => p.in === 'header').map((p) => p.name);
      // Task writes that compare versions also document If-Match.
      const own = headers.filter((h) => h === 'If-Match');
      expect(headers).toEqual([...own, ...(method === 'get' ? ['X-Service-Agent-Name'] : ['Idempotency-Key', 'X-Service-Agent-Name'])]);
      const responses = op.responses as Record<string, { description: string }>;
      for (const status of ['401', '402', '403', '429', '503']) expect(responses[status], `${method} ${path} ${status}`).toBeDefined();
    }
    expect(doc.paths['/v1/plan/entitlements/'].get['x-plan-scope']).toBe('tasks:read');
    expect((doc.paths['/v1/plan/entitlements/'].get.responses as Record<string, { description: string }>)['402'].description).toMatch(/^Never/);
    expect(doc.paths['/v1/plan/boards/'].post['x-plan-scope']).toBe('tasks:admin');
    expect(doc.paths['/v1/plan/boards/{board}/'].delete['x-dry-run']).toBe(true);
    const ifMatch = (path: string, method: string) => (doc.paths[path][method].parameters as { name: string }[]).some((p) => p.name === 'If-Match');
    expect(ifMatch('/v1/plan/tasks/{task}/', 'patch')).toBe(true);
    expect(ifMatch('/v1/plan/tasks/{task}/move/', 'post')).toBe(true);
    expect(doc.paths['/v1/plan/tasks/bulk/'].post['x-idempotency-key']).toBe('required');
  });

  it('prints the scope table in the first Plan section, not at the top of the reference', async () => {
    const table = planScopeTable((await loadParts()).flatMap((part) => part.operations));
    expect(doc.info.description).not.toContain('| Method | Path | Scope |');
    expect(doc.info.description.length).toBeLessThan(2000);
    expect(doc.info.description).toContain('the table of them all is in the *Plan: entitlements* section');
    const tags = doc.tags as { name: string; description?: string }[];
    expect(tags.find((tag) => tag.name === 'Plan: entitlements')?.description).toContain(table);
    // Sections in the order of the operations (Swagger UI puts the declared tags first): Service leads, Plan follows Forms.
    const names = tags.map((tag) => tag.name);
    expect(names[0]).toBe('Service');
    expect(names.indexOf('Plan: entitlements')).toBe(names.indexOf('Forms') + 1);
  });
});
