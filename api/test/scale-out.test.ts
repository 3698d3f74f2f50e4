import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../src/db/connection.ts';
import type { Db } from '../src/db/connection.ts';
import type { SubscriptionRow } from '../src/db/tables.ts';
import { webhookDelivery } from '../src/features/webhooks/dispatch.ts';
import { enqueueMany } from '../src/outbox/deliveries.ts';
import { testDatabase } from './database.ts';
import { CERT_FILE, startHttpsReceiver } from './receivers.ts';
import type { HttpsReceiver } from './receivers.ts';
import { startRoundRobinProxy } from './round-robin-proxy.ts';

/**
 * Three `rollcall serve` processes on one PostgreSQL database behind a round-robin proxy (test/round-robin-proxy.ts),
 * as the README's layout runs them. PostgreSQL only: several processes on one SQLite file is not a layout we offer.
 */
const API_DIR = path.resolve(import.meta.dirname, '..');
const ADMIN_KEY = `rk_${'S'.repeat(40)}`;
const PROCESSES = 3;
const DELIVERIES = 2000;

interface Server {
  child: ChildProcess;
  url: string;
  output: string[];
}

describe.skipIf(process.env.ROLLCALL_TEST_ENGINE !== 'postgres')('Three processes on one database (CONTRACT §5, §10)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-scale-'));
  let database: Awaited<ReturnType<typeof testDatabase>>;
  let db: Db;
  let env: NodeJS.ProcessEnv;
  const servers: (Server | null)[] = Array.from({ length: PROCESSES }, () => null);
  /** Everything every process printed, kept across restarts (job lines are read at the end). */
  const logs: string[][] = Array.from({ length: PROCESSES }, () => []);
  let proxy: Awaited<ReturnType<typeof startRoundRobinProxy>>;
  let rx: HttpsReceiver;
  const started = Date.now();

  async function serve(i: number): Promise<Server> {
    const child = spawn(process.execPath, ['bin/rollcall.js', 'serve'], { cwd: API_DIR, env: { ...env, DATA_DIR: path.join(dir, `p${i}`) }, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = logs[i];
    let pending = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`process ${i} did not start:\n${output.join('\n')}`)), 30_000);
      const read = (chunk: Buffer) => {
        pending += chunk.toString();
        const lines = pending.split('\n');
        pending = lines.pop()!;
        for (const line of lines) {
          output.push(line);
          if (line.includes('"msg":"listening"')) {
            clearTimeout(timer);
            resolve(JSON.parse(line).url);
          }
        }
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.once('exit', (code, signal) => reject(new Error(`process ${i} exited (${code ?? signal}):\n${output.slice(-20).join('\n')}`)));
    });
    const server = { child, url, output };
    servers[i] = server;
    proxy.backends[i] = url;
    return server;
  }

  function kill(i: number): Promise<void> {
    const server = servers[i];
    servers[i] = null;
    proxy.backends[i] = null;
    if (!server || server.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      server.child.once('exit', () => resolve());
      server.child.kill('SIGKILL');
    });
  }

  const api = async (base: string, method: string, pathname: string, key = ADMIN_KEY, body?: unknown) => {
    const res = await fetch(`${base}${pathname}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    database = await testDatabase(dir, { engine: 'postgres' });
    db = createDb(database.url);
    env = {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'debug',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      // Processes sharing a database share its encryption key (README, "Several processes").
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      BOOTSTRAP_API_KEY: ADMIN_KEY,
      ALLOW_PRIVATE_WEBHOOKS: 'true',
      NODE_EXTRA_CA_CERTS: CERT_FILE,
      NODE_COMPILE_CACHE: path.join(os.tmpdir(), 'rollcall-scale-compile-cache'),
      DELIVERY_CONCURRENCY: '8',
      DELIVERY_POLL_MS: '100',
      DELIVERY_RETRY_SCHEDULE: '1s,2s,5s,10s,30s,60s',
      // Leases of 10 s (the least): a killed process's rows move on 10 s after its last renewal.
      WEBHOOK_TIMEOUT_MS: '2000',
      RATE_LIMIT_READS: '100',
      RATE_LIMIT_ENTERPRISE_MULTIPLIER: '1',
    };
    proxy = await startRoundRobinProxy(servers.map(() => null));
    // Started together on an empty database: one migrates and bootstraps, the others wait for it.
    await Promise.all(servers.map((_, i) => serve(i)));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers.map((_, i) => kill(i)));
    await proxy?.close();
    await rx?.close();
    await db?.destroy();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('started together on an empty database: one organization, one admin key that works on every process', async () => {
    expect(await db('organizations').count({ n: '*' })).toEqual([{ n: '1' }]);
    for (const server of servers) expect((await api(server!.url, 'GET', '/v1/organization/')).status).toBe(200);
  });

  it('stops a key revoked on one process on the others within one second', async () => {
    const created = await api(proxy.url, 'POST', '/v1/api-keys/', ADMIN_KEY, { name: 'doomed' });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    for (const server of servers) expect((await api(server!.url, 'GET', '/v1/me/', key)).status).toBe(200); // cached everywhere
    const revokedAt = performance.now();
    expect((await api(servers[0]!.url, 'DELETE', `/v1/api-keys/${created.body.uuid}/`)).status).toBe(204);
    const stoppedAfter = await Promise.all(
      servers.slice(1).map(async (server) => {
        while ((await api(server!.url, 'GET', '/v1/me/', key)).status !== 401) {
          if (performance.now() - revokedAt > 5000) throw new Error('still accepted after 5 s');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return performance.now() - revokedAt;
      }),
    );
    expect(Math.max(...stoppedAfter)).toBeLessThan(1000);
  });

  it('grants exactly 100 of 300 concurrent requests against a budget of 100, spread over the three processes', async () => {
    const created = await api(proxy.url, 'POST', '/v1/api-keys/', ADMIN_KEY, { name: 'budget' });
    const before = [...proxy.served];
    const answers = await Promise.all(Array.from({ length: 300 }, () => api(proxy.url, 'GET', '/v1/me/', created.body.key)));
    expect(proxy.served.map((n, i) => n - before[i])).toEqual([100, 100, 100]);
    expect(answers.filter((res) => res.status === 200)).toHaveLength(100);
    expect(answers.filter((res) => res.status === 429 && res.body.code === 'throttled')).toHaveLength(200);
  });

  it('delivers 2,000 webhooks while processes are killed and restarted: each at least once, twice only if a kill caught it mid-send, in order per key', async () => {
    const received = new Map<string, number[]>(); // webhook-id → receipt times
    rx = await startHttpsReceiver(async (req) => {
      received.set(req.headers['webhook-id'], [...(received.get(req.headers['webhook-id']) ?? []), Date.now()]);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10)); // keep sends on the wire
      return { status: 204 };
    });
    const created = await api(proxy.url, 'POST', '/v1/webhook-subscription/', ADMIN_KEY, { hook_url: `${rx.url}/hook`, subscriptions: ['kudos.posted'] });
    expect(created.status).toBe(201);
    const sub: SubscriptionRow = (await db('webhook_subscriptions').where({ uuid: created.body.hook_id }).first())!;

    // Enqueued in batches while the kills go on; 50 ordering keys.
    const enqueuing = (async () => {
      for (let seq = 0; seq < DELIVERIES; seq += 100) {
        const batch = Array.from({ length: 100 }, (_, i) => ({ ...webhookDelivery(sub, 'kudos.posted', new Date().toISOString(), { seq: seq + i }), orderingKey: `key-${(seq + i) % 50}` }));
        await db.transaction((trx) => enqueueMany(trx, batch, new Date()));
        // 6 s of enqueueing in all: the kills (one every 1.5 s or so) fall while deliveries are still arriving.
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    })();
    const kills: number[] = [];
    const deadline = Date.now() + 120_000;
    // At least three kills even when a loaded machine restarts processes so slowly that everything arrives first.
    for (let round = 0; (received.size < DELIVERIES || kills.length < 3) && Date.now() < deadline; round++) {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      if (kills.length < 6) {
        const victim = round % PROCESSES;
        kills.push(Date.now());
        await kill(victim);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await serve(victim);
      }
    }
    await enqueuing;
    expect(received.size).toBe(DELIVERIES);
    expect(kills.length).toBeGreaterThanOrEqual(3);

    // A second receipt only for a delivery on the wire when a process was killed (its lease then lapsed).
    const duplicates = [...received.values()].filter((times) => times.length > 1);
    // (The request may reach the receiver a moment after the SIGKILL that cut its process off.)
    for (const times of duplicates) expect(kills.some((at) => times[0] <= at + 250 && at - times[0] < 2000)).toBe(true);
    expect(duplicates.length).toBeLessThanOrEqual(kills.length * 8);
    // Per ordering key, first receipts in enqueue order.
    const rows = await db('deliveries').select('webhook_id', 'ordering_key', 'uuid', 'status');
    const firstReceipt = (row: { webhook_id: string | null }) => received.get(row.webhook_id!)![0];
    for (let key = 0; key < 50; key++) {
      const times = rows.filter((row) => row.ordering_key === `key-${key}`).sort((a, b) => (a.uuid < b.uuid ? -1 : 1)).map(firstReceipt);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
    // Every row ends delivered, none still claimed.
    for (let i = 0; i < 100; i++) {
      const open = await db('deliveries').whereNot({ status: 'delivered' }).orWhereNotNull('claimed_by').count({ n: '*' });
      if (open[0].n === '0') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await db('deliveries').whereNot({ status: 'delivered' }).orWhereNotNull('claimed_by').count({ n: '*' })).toEqual([{ n: '0' }]);
  }, 180_000);

  it('runs each cron firing in one process only', async () => {
    // Wait for a minute boundary with all three processes up (at most a minute; usually one has passed already).
    const firings = () =>
      logs
        .flat()
        .filter((line) => line.includes('"job":"workflow-schedules"') && /"msg":"job (ran|firing skipped)"/.test(line))
        .map((line) => JSON.parse(line) as { fired_at: string; msg: string });
    const contested = () => {
      const byFiring = Map.groupBy(firings(), (entry) => entry.fired_at);
      return [...byFiring.values()].filter((entries) => entries.length === PROCESSES);
    };
    const deadline = Date.now() + 70_000;
    while (contested().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 500));
    expect(contested().length).toBeGreaterThan(0);
    for (const entries of contested()) expect(entries.filter((entry) => entry.msg === 'job ran')).toHaveLength(1);
    // No firing ran twice, contested or not.
    const ran = firings().filter((entry) => entry.msg === 'job ran').map((entry) => entry.fired_at);
    expect(new Set(ran).size).toBe(ran.length);
    expect(Date.now() - started).toBeLessThan(240_000);
  }, 90_000);
});
