import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { loadConfig } from '../lib/config.ts';
import { parseTrustProxy, proxyTrust } from '../lib/trust-proxy.ts';
import { addToCounter, storedBucket } from '../db/counters.ts';
import { validHost } from './forwarded.ts';

/** A request with headers fetch will not send (Host). */
function rawGet(url: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, { headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('forwarded headers and TRUST_PROXY', () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  /** An organization with three keys, so GET /v1/api-keys/?limit=1 has a next page. */
  async function paginated(app: TestApp) {
    const acme = await app.seedOrganization();
    await app.request('POST', '/v1/api-keys/', { key: acme.adminKey, body: {} });
    await app.request('POST', '/v1/api-keys/', { key: acme.adminKey, body: {} });
    return acme.adminKey;
  }

  it('ignores junk forwarded headers on a paginated list: never a 500, never another host in next', async () => {
    for (const trust of [undefined, 'loopback']) {
      t = await startTestApp({}, trust ? { TRUST_PROXY: trust } : {});
      const key = await paginated(t);
      const base = new URL(t.url);
      const junk: Record<string, string>[] = [
        { 'x-forwarded-proto': '1' }, { 'x-forwarded-proto': 'javascript' }, { 'x-forwarded-host': 'a b' }, { 'x-forwarded-host': 'a/b' },
        { 'x-forwarded-host': 'evil.test/x?y' }, { 'x-forwarded-host': 'user@evil.test' }, { 'x-forwarded-host': '[::::]' }, { 'x-forwarded-host': 'h:99999' },
        { 'x-forwarded-for': 'not an address, also junk' }, { 'x-forwarded-proto': '', 'x-forwarded-host': '' },
      ];
      for (const headers of junk) {
        const res = await t.request('GET', '/v1/api-keys/?limit=1', { key, headers });
        expect([headers, res.status]).toEqual([headers, 200]);
        const next = new URL(res.body.next);
        expect([headers, next.protocol, next.host, next.pathname, next.search]).toEqual([headers, 'http:', base.host, '/v1/api-keys/', '?limit=1&offset=1']);
      }
      // A junk Host header (no proxy involved) is ignored too: our own address stands in.
      const raw = await rawGet(t.url, '/v1/api-keys/?limit=1', { 'x-api-key': key, host: 'a b' });
      expect(raw.status).toBe(200);
      expect(new URL(raw.body.next).host).toBe(base.host);
      await t.close();
    }
  });

  it('believes X-Forwarded-Proto and -Host from a trusted proxy only; PUBLIC_URL wins over both', async () => {
    const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example.com' };
    t = await startTestApp();
    let key = await paginated(t);
    expect(new URL((await t.request('GET', '/v1/api-keys/?limit=1', { key, headers })).body.next).origin).toBe(new URL(t.url).origin);
    await t.close();

    t = await startTestApp({}, { TRUST_PROXY: '127.0.0.1, ::1' });
    key = await paginated(t);
    expect((await t.request('GET', '/v1/api-keys/?limit=1', { key, headers })).body.next).toBe('https://api.example.com/v1/api-keys/?limit=1&offset=1');
    await t.close();

    t = await startTestApp({}, { TRUST_PROXY: '1', PUBLIC_URL: 'https://rollcall.example.org/base' });
    key = await paginated(t);
    expect((await t.request('GET', '/v1/api-keys/?limit=1', { key, headers })).body.next).toBe('https://rollcall.example.org/base/v1/api-keys/?limit=1&offset=1');
  });

  it('holds the per-address sign-in budget (20 an hour) against a rotated X-Forwarded-For', async () => {
    // No proxy trusted (the default): the header is the client's own word, and 25 tries from one socket give 20.
    t = await startTestApp();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: `p${i}@acme.test` }, headers: { 'x-forwarded-for': `203.0.113.${i}` } });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(20).fill(200), ...Array(5).fill(429)]);
    await t.close();

    // Behind a trusted proxy the client is the address the proxy appended, whatever the client wrote before it.
    t = await startTestApp({}, { TRUST_PROXY: 'loopback' });
    const behindProxy: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: `q${i}@acme.test` }, headers: { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.7` } });
      behindProxy.push(res.status);
    }
    expect(behindProxy).toEqual([...Array(20).fill(200), ...Array(5).fill(429)]);
    // Another client behind the same proxy has its own budget.
    expect((await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'r@acme.test' }, headers: { 'x-forwarded-for': '198.51.100.8' } })).status).toBe(200);
  });

  it('keeps a long client address within the rate-limit key (it overflowed varchar(200) on PostgreSQL: 500)', async () => {
    t = await startTestApp({}, { TRUST_PROXY: 'loopback' });
    const long = `fe80::1%${'a'.repeat(180)}`;
    const res = await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'long@acme.test' }, headers: { 'x-forwarded-for': long } });
    expect(res.status).toBe(200);
    // Two buckets that differ only past the cut count apart; each stored key fits the column.
    const a = `x:${'b'.repeat(300)}1`;
    const b = `x:${'b'.repeat(300)}2`;
    expect(await addToCounter(t.db, a, 0, 1)).toBe(1);
    expect(await addToCounter(t.db, a, 0, 1)).toBe(2);
    expect(await addToCounter(t.db, b, 0, 1)).toBe(1);
    expect(storedBucket(a).length).toBeLessThanOrEqual(200);
    expect(storedBucket('short')).toBe('short');
  });
});

describe('TRUST_PROXY values', () => {
  const config = (value: string) => loadConfig({ NODE_ENV: 'test', TRUST_PROXY: value }).trustProxy;

  it('reads off, a hop count, or addresses and ranges; anything else stops the start naming the variable', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).trustProxy).toBeNull();
    expect(config('false')).toBeNull();
    expect(config('0')).toBeNull();
    expect(config('2')).toEqual({ hops: 2 });
    expect(config('10.0.0.0/8, 192.0.2.7 ,fd00::/8')).toEqual({ addresses: ['10.0.0.0/8', '192.0.2.7', 'fd00::/8'] });
    for (const bad of ['true', 'proxy.local', '10.0.0.0/33', '10.0.0.1/8/1', '::1/129', '33', ',']) {
      expect(() => config(bad), bad).toThrow(/^TRUST_PROXY: /);
    }
  });

  it('trusts exactly the listed addresses and ranges (IPv4-mapped peers included), or the nearest hops', () => {
    const trusts = proxyTrust(parseTrustProxy('loopback, 10.1.0.0/16, 2001:db8::/32'));
    expect(['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1', '10.1.200.3', '::ffff:10.1.0.1', '2001:db8::5'].map((a) => trusts(a, 0))).toEqual(Array(7).fill(true));
    expect(['10.2.0.1', '192.168.1.1', '2001:db9::1', 'junk', ''].map((a) => trusts(a, 0))).toEqual(Array(5).fill(false));
    const hops = proxyTrust(parseTrustProxy('2'));
    expect([0, 1, 2].map((hop) => hops('203.0.113.1', hop))).toEqual([true, true, false]);
    expect(proxyTrust(null)('127.0.0.1', 0)).toBe(false);
  });

  it('takes as a host only what fits between // and a path (property: whatever it takes makes a URL with that host)', () => {
    expect(['example.com', 'example.com:8443', '127.0.0.1:8080', '[::1]:8080', 'a-b.c.d.'].map(validHost)).toEqual(['example.com', 'example.com:8443', '127.0.0.1:8080', '[::1]:8080', 'a-b.c.d.']);
    expect(['a b', 'a/b', 'u@h', 'h:99999', '[::::]', '', '-a.com', 'a..b', undefined].map(validHost)).toEqual(Array(9).fill(null));
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (value) => {
        const host = validHost(value);
        if (host !== null) expect(new URL(`http://${host}/v1/`).pathname).toBe('/v1/');
      }),
      { seed: 24, numRuns: 500 },
    );
  });
});
