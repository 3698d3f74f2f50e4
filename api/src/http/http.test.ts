import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';

describe('HTTP conventions (CONTRACT §2, §12)', () => {
  let t: TestApp;
  let acme: Awaited<ReturnType<TestApp['seedOrganization']>>;
  beforeEach(async () => {
    t = await startTestApp();
    acme = await t.seedOrganization();
  });
  afterEach(async () => t.close());

  it('refuses a body field the endpoint does not take: 400 unknown_field with extra.parameter', async () => {
    const res = await t.request('POST', '/v1/api-keys/', { key: acme.adminKey, body: { name: 'x', colour: 'red' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'Unknown field: colour.', code: 'unknown_field', extra: { parameter: 'colour' } });
    const patch = await t.request('PATCH', '/v1/organization/', { key: acme.adminKey, body: { plan: 'enterprise' } });
    expect(patch.body).toEqual({ detail: 'Unknown field: plan.', code: 'unknown_field', extra: { parameter: 'plan' } });
  });

  it('reports every validation problem with its path as a field map with no code', async () => {
    const res = await t.request('POST', '/v1/api-keys/', {
      key: acme.adminKey,
      body: { name: 5, kind: 'root', scopes: ['tasks:read', 'everything'], is_agent_key: 'yes' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      name: ['Must be a string.'],
      kind: ['Must be one of: personal, agent, organization.'],
      'scopes.1': ['Must be one of: tasks:read, tasks:write, tasks:admin, checkins, kudos, agents, email.'],
      is_agent_key: ['Must be a boolean.'],
    });
    const tz = await t.request('PATCH', '/v1/organization/', { key: acme.adminKey, body: { timezone: 'Mars/Olympus' } });
    expect(tz.body).toEqual({ timezone: ['Must be an IANA time zone, for example Europe/Madrid.'] });
    const notObject = await t.request('PATCH', '/v1/organization/', { key: acme.adminKey, body: ['x'] });
    expect(notObject.status).toBe(400);
    expect(notObject.body).toEqual({ non_field_errors: ['Expected a JSON object.'] });
  });

  it('answers malformed JSON with 400 malformed_json and bodies over 1 MiB with 413 payload_too_large', async () => {
    const bad = await t.request('PATCH', '/v1/organization/', { key: acme.adminKey, raw: '{"name": ' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ detail: 'Malformed JSON in the request body.', code: 'malformed_json' });
    const big = await t.request('PATCH', '/v1/organization/', { key: acme.adminKey, raw: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }) });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ detail: 'The request body is larger than 1 MiB.', code: 'payload_too_large' });
  });

  it('takes an empty JSON body as an empty object, and parses JSON bodies on DELETE', async () => {
    const empty = await t.request('POST', '/v1/api-keys/', { key: acme.adminKey, raw: '', headers: { 'content-type': 'application/json' } });
    expect(empty.status).toBe(201);
    // A DELETE body is read: a field the endpoint does not take is refused, and malformed JSON is malformed.
    const withField = await t.request('DELETE', `/v1/api-keys/${empty.body.uuid}/`, { key: acme.adminKey, body: { reason: 'rotated' } });
    expect(withField.status).toBe(400);
    expect(withField.body).toEqual({ detail: 'Unknown field: reason.', code: 'unknown_field', extra: { parameter: 'reason' } });
    const malformed = await t.request('DELETE', `/v1/api-keys/${empty.body.uuid}/`, { key: acme.adminKey, raw: '{"reason":' });
    expect(malformed.body.code).toBe('malformed_json');
    const emptyDelete = await t.request('DELETE', `/v1/api-keys/${empty.body.uuid}/`, { key: acme.adminKey, raw: '', headers: { 'content-type': 'application/json' } });
    expect(emptyDelete.status).toBe(204);
  });

  it('serves every path with or without its trailing slash, POST bodies included', async () => {
    expect((await t.request('GET', '/v1/me', { key: acme.adminKey })).status).toBe(200);
    const created = await t.request('POST', '/v1/api-keys', { key: acme.adminKey, body: { name: 'no slash' } });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('no slash');
    expect((await t.request('GET', `/v1/api-keys/${created.body.uuid}`, { key: acme.adminKey })).status).toBe(200);
  });

  it('answers unknown paths with 404 not_found and wrong methods with 405', async () => {
    const missing = await t.request('GET', '/v1/nothing-here/', { key: acme.adminKey });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Not found.', code: 'not_found' });
    const notUuid = await t.request('GET', '/v1/api-keys/not-a-uuid/', { key: acme.adminKey });
    expect(notUuid.status).toBe(404);
    expect(notUuid.body).toEqual(missing.body);
    const wrong = await t.request('PUT', '/v1/me/', { key: acme.adminKey });
    expect(wrong.status).toBe(405);
    expect(wrong.body).toEqual({ detail: 'Method "PUT" not allowed.', code: 'method_not_allowed' });
  });

  it('puts X-Request-Id on every response, keeping a sane incoming one', async () => {
    const fresh = await t.request('GET', '/v1/me/');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.request('GET', '/v1/me/', { key: acme.adminKey, headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
    const unsafe = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'a b<script>' } });
    expect(unsafe.headers.get('x-request-id')).not.toBe('a b<script>');
  });

  it('writes one JSON access-log line per request, in the logger\'s format, without headers or query', async () => {
    await t.request('GET', '/v1/me/?secret=zzz', { key: acme.adminKey, headers: { 'x-request-id': 'trace-log-1' } });
    // Access-log lines reach the destination in chunks of whole lines.
    const entries = t.logs.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((l) => JSON.parse(l));
    const line = entries.find((entry) => entry.request_id === 'trace-log-1');
    expect(line).toEqual({ level: 30, time: expect.any(Number), request_id: 'trace-log-1', method: 'GET', path: '/v1/me/', status: 200, ms: expect.any(Number), msg: 'request' });
    expect(t.logs.join('\n')).not.toContain(acme.adminKey);
  });

  it('pages lists with page/page_size or limit/offset; next and previous repeat every filter', async () => {
    for (let i = 0; i < 4; i++) await t.request('POST', '/v1/api-keys/', { key: acme.adminKey, body: { name: `k${i}` } });
    const first = await t.request('GET', '/v1/api-keys/?page_size=2&ordering=-created_at', { key: acme.adminKey });
    expect(first.body.count).toBe(5);
    expect(first.body.results).toHaveLength(2);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toBe(`${t.url}/v1/api-keys/?page_size=2&ordering=-created_at&page=2`);
    const second = await t.request('GET', first.body.next.slice(t.url.length), { key: acme.adminKey });
    expect(second.body.previous).toBe(`${t.url}/v1/api-keys/?page_size=2&ordering=-created_at`);
    const third = await t.request('GET', second.body.next.slice(t.url.length), { key: acme.adminKey });
    expect(third.body.results).toHaveLength(1);
    expect(third.body.next).toBeNull();

    const offset = await t.request('GET', '/v1/api-keys/?limit=3&offset=1', { key: acme.adminKey });
    expect(offset.body.results).toHaveLength(3);
    expect(offset.body.next).toBe(`${t.url}/v1/api-keys/?limit=3&offset=4`);
    expect(offset.body.previous).toBe(`${t.url}/v1/api-keys/?limit=3&offset=0`);
    const ids = [...first.body.results, ...second.body.results, ...third.body.results].map((k: { uuid: string }) => k.uuid);
    expect(new Set(ids).size).toBe(5);

    const tooBig = await t.request('GET', '/v1/api-keys/?page_size=101', { key: acme.adminKey });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body).toEqual({ detail: 'page_size must be a whole number from 1 to 100.', code: 'invalid_filter_value', extra: { parameter: 'page_size' } });
  });

  it('builds next/previous from PUBLIC_URL when set', async () => {
    const other = await startTestApp({ publicUrl: 'https://rollcall.example.com/api' });
    try {
      const org = await other.seedOrganization();
      await other.request('POST', '/v1/api-keys/', { key: org.adminKey, body: {} });
      const res = await other.request('GET', '/v1/api-keys/?limit=1', { key: org.adminKey });
      expect(res.body.next).toBe('https://rollcall.example.com/api/v1/api-keys/?limit=1&offset=1');
    } finally {
      await other.close();
    }
  });

  it('with REQUIRE_HTTPS, refuses plain HTTP (403 https_required) but trusts X-Forwarded-Proto: https from a trusted proxy', async () => {
    for (const trusted of [false, true]) {
      const secure = await startTestApp({ requireHttps: true }, trusted ? { TRUST_PROXY: 'loopback' } : {});
      try {
        const org = await secure.seedOrganization();
        const plain = await secure.request('GET', '/v1/me/', { key: org.adminKey });
        expect(plain.status).toBe(403);
        expect(plain.body).toEqual({ detail: 'Only HTTPS is accepted.', code: 'https_required' });
        // Without TRUST_PROXY the header is the client's own word.
        const proxied = await secure.request('GET', '/v1/me/', { key: org.adminKey, headers: { 'x-forwarded-proto': 'https' } });
        expect([trusted, proxied.status]).toEqual([trusted, trusted ? 200 : 403]);
        expect((await secure.request('GET', '/healthz')).status).toBe(200);
      } finally {
        await secure.close();
      }
    }
  });

  it('PATCH /v1/organization/ is for admins and changes name and timezone', async () => {
    const member = await t.seedUser(acme.org.uuid);
    const refused = await t.request('PATCH', '/v1/organization/', { key: member.key, body: { name: 'Mine' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'Only organization admins can do this.', code: 'org_admin_required' });
    const ok = await t.request('PATCH', '/v1/organization/', { key: acme.adminKey, body: { name: 'Acme Inc', timezone: 'America/Bogota' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      uuid: acme.org.uuid, id: acme.org.uuid, name: 'Acme Inc', timezone: 'America/Bogota', plan: 'pro',
      plan_beta_enabled: false, platform: null, image: null, created_at: '2026-03-10T15:00:00.000Z',
    });
    expect((await t.request('GET', '/v1/me/', { key: member.key })).body.organization_name).toBe('Acme Inc');
  });
});
