import fs from 'node:fs';
import { fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/lib/config.ts';
import { createDb } from '../src/db/connection.ts';
import { migrateLatest } from '../src/db/migrate.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/lib/logger.ts';
import { createOrganization } from '../src/features/organization/service.ts';
import { recordEvent } from '../src/features/webhooks/events.ts';
import { insertKudosSubscription } from './lib.ts';

const here = path.dirname(new URL(import.meta.url).pathname);
const CERT = fs.readFileSync(path.join(here, '..', 'test', 'fixtures', 'localhost-cert.pem'));

export interface DeliveriesBenchResult {
  deliveries: number;
  offeredPerSecond: number;
  deliveriesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  peakRssMiB: number;
  peakHeapMiB: number;
  signatureChecks: number;
  duplicates: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * 10,000 organization events → webhook deliveries → a local HTTPS receiver. Events are committed in small
 * transactions at `offeredPerSecond`; latency is commit → receipt at the receiver (through the event
 * dispatcher, the outbox and the worker pool). Returns the numbers; prints them when `print` is set.
 */
export async function benchDeliveries(options: { count?: number; offeredPerSecond?: number; concurrency?: number; print?: boolean } = {}): Promise<DeliveriesBenchResult> {
  const count = options.count ?? 10_000;
  const offered = options.offeredPerSecond ?? 1_000;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-'));
  const config = {
    ...loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, ALLOW_PRIVATE_WEBHOOKS: 'true', DELIVERY_CONCURRENCY: String(options.concurrency ?? 64), DELIVERY_POLL_MS: '200' }),
    logLevel: 'silent',
  };
  const db = createDb(config.databaseUrl);
  await migrateLatest(db);
  const { deps, close: closeApp } = createApp({ db, clock: systemClock, config, logger: createLogger('silent'), delivery: { ca: CERT } });

  const commitAt = new Map<number, number>();
  const latencies: number[] = [];
  let firstCommit = 0;
  let lastReceipt = 0;
  let signatureChecks = 0;
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  const seen = new Set<number>();
  let duplicates = 0;
  const WARMUP = 500;
  let warmedUp = 0;
  let warm: () => void = () => {};
  const warmed = new Promise<void>((resolve) => (warm = resolve));
  const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
  const receiver = fork(new URL('./receiver-process.ts', import.meta.url), { env: { ...process.env, BENCH_SECRET: secret }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  receiver.on('exit', (code) => {
    if (code !== 0) throw new Error(`receiver exited with ${code}`);
  });
  const port = await new Promise<number>((resolve) => {
    receiver.on('message', (m: { port?: number; receipts?: [number, number][]; verified?: number }) => {
      if (m.port) resolve(m.port);
      for (const [seq, at] of m.receipts ?? []) {
        if (seq < 0) {
          warmedUp++;
          continue;
        }
        if (seen.has(seq)) {
          duplicates++;
          continue;
        }
        seen.add(seq);
        latencies.push(at - commitAt.get(seq)!);
        lastReceipt = Math.max(lastReceipt, at);
      }
      signatureChecks = m.verified ?? signatureChecks;
      if (warmedUp >= WARMUP) warm();
      if (seen.size >= count) done();
    });
  });
  const clock = () => performance.timeOrigin + performance.now();

  const now = new Date();
  const org = await createOrganization(db, { name: 'Bench', plan: 'enterprise' }, now);
  await insertKudosSubscription(db, { organizationUuid: org.uuid, hookUrl: `https://127.0.0.1:${port}/hook`, name: 'bench', secretEncrypted: deps.secretBox.encrypt(secret), now });

  let peakRss = 0;
  let peakHeap = 0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 50);

  deps.delivery.start();
  // Warm-up (not measured): TLS connections, JIT. Negative sequence numbers.
  await db.transaction(async (trx) => {
    for (let i = 1; i <= WARMUP; i++) await recordEvent(trx, { organizationUuid: org.uuid, event: 'kudos.posted', payload: { seq: -i } }, new Date());
  });
  deps.delivery.kick();
  await warmed;

  // Open-loop load: every ~10 ms, commit (in one transaction) the events due by now at the offered rate.
  firstCommit = clock();
  let seq = 0;
  while (seq < count) {
    const due = Math.min(count, Math.floor(((clock() - firstCommit) / 1000) * offered) + 1);
    const batch: number[] = [];
    if (due > seq) {
      await db.transaction(async (trx) => {
        for (; seq < due; seq++) {
          await recordEvent(trx, { organizationUuid: org.uuid, event: 'kudos.posted', payload: { seq, content: 'Thanks!' } }, new Date());
          batch.push(seq);
        }
      });
      const committed = clock();
      for (const s of batch) commitAt.set(s, committed);
      deps.delivery.kick();
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const watchdog = setInterval(() => {
    if (process.env.BENCH_DEBUG) process.stderr.write(`received ${latencies.length}/${count}, in flight ${deps.delivery.inFlight}\n`);
  }, 1000);
  await finished;
  clearInterval(watchdog);
  clearInterval(sampler);
  await closeApp();
  receiver.send('close');
  const delivered = await db('deliveries').where({ status: 'delivered' }).count({ n: '*' });
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });

  const sorted = [...latencies].sort((a, b) => a - b);
  const result: DeliveriesBenchResult = {
    deliveries: Number(delivered[0].n) - WARMUP,
    offeredPerSecond: offered,
    deliveriesPerSecond: Math.round(count / ((lastReceipt - firstCommit) / 1000)),
    p50Ms: Math.round(percentile(sorted, 50) * 10) / 10,
    p99Ms: Math.round(percentile(sorted, 99) * 10) / 10,
    maxMs: Math.round(sorted[sorted.length - 1] * 10) / 10,
    peakRssMiB: Math.round(peakRss / 1024 / 1024),
    peakHeapMiB: Math.round(peakHeap / 1024 / 1024),
    signatureChecks,
    duplicates,
  };
  if (options.print) {
    process.stdout.write(
      `webhook deliveries: ${count} to a local HTTPS receiver, offered ${offered}/s, concurrency ${options.concurrency ?? 64}\n` +
        `  throughput       ${result.deliveriesPerSecond} deliveries/s (${result.deliveries} marked delivered)\n` +
        `  commit→receipt   p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, max ${result.maxMs} ms\n` +
        `  memory           peak RSS ${result.peakRssMiB} MiB, peak heap ${result.peakHeapMiB} MiB\n` +
        `  signatures       ${result.signatureChecks} verified with standardwebhooks; ${result.duplicates} duplicate receipts\n`,
    );
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const offered = Number(process.env.BENCH_OFFERED ?? 1000);
  const burst = process.argv.includes('--burst');
  await benchDeliveries({ print: true, offeredPerSecond: burst ? 1_000_000 : offered });
}
