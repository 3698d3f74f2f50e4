import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { DEFAULT_HOURLY_BUDGETS } from '../lib/config.ts';
import { pruneRateLimitCounters } from '../jobs/index.ts';
import { Budgets } from '../db/counters.ts';

describe('Hourly budgets per named scope (CONTRACT §5)', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('sends RateLimit-Policy and RateLimit on authenticated answers', async () => {
    t = await startTestApp();
    const { adminKey } = await t.seedOrganization({ plan: 'pro' });
    const res = await t.request('GET', '/v1/me/', { key: adminKey });
    expect(res.headers.get('ratelimit-policy')).toBe('"reads";q=5000;w=3600');
    // 15:00:00 is the start of the hour window: 3600 seconds to its end.
    expect(res.headers.get('ratelimit')).toBe('"reads";r=4999;t=3600');
    const write = await t.request('POST', '/v1/api-keys/', { key: adminKey, body: {} });
    expect(write.headers.get('ratelimit-policy')).toBe('"writes";q=1000;w=3600');
  });

  it('answers 429 throttled with extra.retry_after and Retry-After once a scope is spent, per scope and credential', async () => {
    t = await startTestApp({ hourlyBudgets: { ...DEFAULT_HOURLY_BUDGETS, reads: 3 } });
    const { org, adminKey } = await t.seedOrganization({ plan: 'pro' });
    const other = await t.seedUser(org.uuid);
    t.clock.set('2026-03-10T15:40:00.000Z');
    for (let i = 0; i < 3; i++) expect((await t.request('GET', '/v1/me/', { key: adminKey })).status).toBe(200);
    const throttled = await t.request('GET', '/v1/me/', { key: adminKey });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('1200');
    expect(throttled.body).toEqual({
      detail: 'Request was throttled. Expected available in 1200 seconds.',
      code: 'throttled',
      extra: { retry_after: 1200 },
    });
    expect(throttled.headers.get('ratelimit')).toBe('"reads";r=0;t=1200');
    // Other scopes and other credentials keep their own budgets.
    expect((await t.request('POST', '/v1/api-keys/', { key: adminKey, body: {} })).status).toBe(201);
    expect((await t.request('GET', '/v1/me/', { key: other.key })).status).toBe(200);
    // The next hour starts a new window.
    t.clock.set('2026-03-10T16:00:00.000Z');
    expect((await t.request('GET', '/v1/me/', { key: adminKey })).status).toBe(200);
  });

  it('gives enterprise organizations five times the budget', async () => {
    t = await startTestApp();
    const { adminKey } = await t.seedOrganization({ plan: 'enterprise' });
    const res = await t.request('GET', '/v1/me/', { key: adminKey });
    expect(res.headers.get('ratelimit-policy')).toBe('"reads";q=25000;w=3600');
  });

  it('stores every counted request before answering it, so another process (or a restart after a crash) sees the spent budget', async () => {
    t = await startTestApp({ hourlyBudgets: { ...DEFAULT_HOURLY_BUDGETS, reads: 2 } });
    const { adminKey } = await t.seedOrganization();
    expect((await t.request('GET', '/v1/me/', { key: adminKey })).status).toBe(200);
    expect((await t.request('GET', '/v1/me/', { key: adminKey })).status).toBe(200);
    // No flush, no close: what was granted is already stored (window_start is a bigint, a string on PostgreSQL).
    const rows = (await t.db('rate_limit_counters').select()).map((row) => ({ ...row, window_start: Number(row.window_start) }));
    expect(rows).toEqual([expect.objectContaining({ count: 2, window_start: Date.parse('2026-03-10T15:00:00Z') / 1000 })]);

    // Another API process on the same database finds the budget spent.
    const other = new Budgets(t.db, t.clock, t.deps.logger);
    expect(await other.take(rows[0].bucket, 2, 3600)).toEqual({ allowed: false, used: 2, limit: 2, resetSeconds: 3600 });
    await other.close();
    expect((await t.request('GET', '/v1/me/', { key: adminKey })).status).toBe(429);
    t.clock.advance(2 * 86_400_000);
    expect(await pruneRateLimitCounters(t.deps)).toBe(1);
  });
});
