import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { TEST_CA, startHttpsReceiver } from '../../test/receivers.ts';
import type { HttpsReceiver } from '../../test/receivers.ts';
import { webhookDelivery } from '../features/webhooks/dispatch.ts';
import { claimDue, enqueueMany, recordAndSettle, settle } from '../outbox/deliveries.ts';
import type { SubscriptionRow } from '../db/tables.ts';
import { startJobs } from '../jobs/index.ts';

/**
 * Several processes sending from one outbox (PostgreSQL; on SQLite one process owns the file and keeps its
 * in-memory path, which the other delivery tests cover). Each "process" is an app on its own connections to
 * the shared database; test/scale-out.test.ts does the same with real processes killed mid-send.
 */
const postgres = process.env.ROLLCALL_TEST_ENGINE === 'postgres';

describe.skipIf(!postgres)('A shared outbox: claims with leases (CONTRACT §10)', () => {
  let apps: TestApp[] = [];
  let rx: HttpsReceiver;
  afterEach(async () => {
    for (const app of apps.reverse()) await app.close();
    apps = [];
    await rx.close();
  });

  async function twoProcesses(roles: { first?: Record<string, string>; second?: Record<string, string> } = {}) {
    const env = { DELIVERY_POLL_MS: '50', DELIVERY_CONCURRENCY: '4', WEBHOOK_TIMEOUT_MS: '2000' };
    const first = await startTestApp({ allowPrivateWebhooks: true }, { ...env, ...roles.first }, { ca: TEST_CA });
    first.clock.set(new Date()); // webhook-timestamp is checked against the receiver's real clock
    apps = [first, await startTestApp({ allowPrivateWebhooks: true }, { ...env, ...roles.second }, { ca: TEST_CA }, { sameDatabaseAs: first })];
    const acme = await first.seedOrganization();
    const created = await first.request('POST', '/v1/webhook-subscription/', { key: acme.adminKey, body: { hook_url: `${rx.url}/hook`, subscriptions: ['kudos.posted'] } });
    expect(created.status).toBe(201);
    const sub: SubscriptionRow = (await first.db('webhook_subscriptions').where({ uuid: created.body.hook_id }).first())!;
    return { apps, sub };
  }

  const deliveries = (sub: SubscriptionRow, keys: number, perKey: number) =>
    Array.from({ length: keys * perKey }, (_, i) => ({ ...webhookDelivery(sub, 'kudos.posted', '2026-03-10T15:00:00Z', { key: i % keys, seq: i }), orderingKey: `key-${i % keys}` }));

  it('sends each of 200 deliveries once from two processes, one at a time and in order per ordering key', async () => {
    rx = await startHttpsReceiver(async () => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 4));
      return { status: 204 };
    });
    const { apps: [a, b], sub } = await twoProcesses();
    await a.db.transaction((trx) => enqueueMany(trx, deliveries(sub, 20, 10), a.clock.now()));
    a.deps.delivery.start();
    b.deps.delivery.start();
    await rx.waitFor(200, 30_000);
    await Promise.all([a, b].map(async (app) => {
      app.deps.delivery.stop();
      await app.deps.delivery.idle();
    }));
    const bodies = rx.received.map((r) => r.json.body as { key: number; seq: number });
    expect(new Set(bodies.map((body) => body.seq)).size).toBe(200);
    expect(rx.received).toHaveLength(200);
    for (let key = 0; key < 20; key++) {
      const order = bodies.filter((body) => body.key === key).map((body) => body.seq);
      expect(order).toEqual([...order].sort((x, y) => x - y));
    }
    expect(await a.db('delivery_attempts').count({ n: '*' })).toEqual([{ n: '200' }]);
    expect(await a.db('deliveries').whereNot({ status: 'delivered' }).orWhereNotNull('claimed_by').count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it("takes over a row whose process died once its lease lapses, and never writes a lost claim's outcome", async () => {
    rx = await startHttpsReceiver();
    const { apps: [a, b], sub } = await twoProcesses();
    const now = a.clock.now();
    await a.db.transaction((trx) => enqueueMany(trx, deliveries(sub, 1, 1), now));
    // A process claims the row, then dies without a word.
    const [claimed] = await claimDue(a.db, { owner: 'dead-process', now, leaseMs: 30_000, limit: 10, held: [] });
    expect(claimed).toMatchObject({ claimed_by: 'dead-process', lease_expires_at: new Date(now.getTime() + 30_000).toISOString() });
    await b.deps.delivery.runDue();
    expect(rx.received).toHaveLength(0);
    // Its lease lapses: another process may claim the row, and the dead one's late outcome is not written over it.
    a.clock.advance(30_001);
    const [retaken] = await claimDue(a.db, { owner: 'second-process', now: a.clock.now(), leaseMs: 30_000, limit: 10, held: [] });
    expect(retaken).toMatchObject({ uuid: claimed.uuid, claimed_by: 'second-process' });
    const late = await a.db.transaction((trx) =>
      settle(trx, { delivery: claimed, attempt: 1, outcome: 'delivered', status: 'delivered', nextAttemptAt: now.toISOString(), statusCode: 204, error: null, durationMs: 1, started: now, owner: 'dead-process' }, a.clock.now()),
    );
    expect(late).toBe(false);
    // The same through the worker's one-statement write of an outcome without hooks: logged, not written over.
    const attempt = { delivery: claimed, attempt: 1, outcome: 'delivered' as const, status: 'delivered' as const, nextAttemptAt: now.toISOString(), statusCode: 204, error: null, durationMs: 1, started: now };
    expect(await recordAndSettle(a.db, [{ ...attempt, owner: 'dead-process' }], a.clock.now())).toEqual(new Set());
    expect(await a.db('delivery_attempts').where({ delivery_uuid: claimed.uuid }).select('attempt', 'outcome', 'status_code')).toEqual([{ attempt: 1, outcome: 'delivered', status_code: 204 }]);
    expect(await a.db('deliveries').where({ uuid: claimed.uuid }).first()).toMatchObject({ status: 'pending', claimed_by: 'second-process' });
    // That one dies too: after its lease, a running worker sends the row, once.
    a.clock.advance(30_001);
    await b.deps.delivery.runDue();
    expect(rx.received).toHaveLength(1);
    expect(await a.db('deliveries').where({ uuid: claimed.uuid }).first()).toMatchObject({ status: 'delivered', attempts: 1, claimed_by: null, lease_expires_at: null });
  });

  it('ROLE=api sends nothing itself; a ROLE=worker process on the same database sends what it enqueued', async () => {
    rx = await startHttpsReceiver();
    const { apps: [api, worker], sub } = await twoProcesses({ first: { ROLE: 'api' }, second: { ROLE: 'worker' } });
    const background = [startJobs(api.deps)];
    try {
      await api.db.transaction((trx) => enqueueMany(trx, deliveries(sub, 1, 3), api.clock.now()));
      await new Promise((resolve) => setTimeout(resolve, 300)); // six of the api process's poll intervals, had it a worker
      expect(rx.received).toHaveLength(0);
      expect(await api.db('deliveries').whereNotNull('claimed_by').count({ n: '*' })).toEqual([{ n: '0' }]);
      background.push(startJobs(worker.deps));
      await rx.waitFor(3, 10_000);
      expect(rx.received.map((r) => (r.json.body as { seq: number }).seq)).toEqual([0, 1, 2]);
    } finally {
      for (const jobs of background) {
        jobs.stop();
        await jobs.idle();
      }
    }
  });
});
