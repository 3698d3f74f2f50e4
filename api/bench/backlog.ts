/**
 * Delivery backlog memory: 100,000 pending webhook deliveries (BENCH_BACKLOG_COUNT) of about 1 KB each are
 * written to the outbox before a `rollcall serve` process starts; its resident memory is sampled while its
 * delivery workers drain the backlog to a local HTTPS receiver for BENCH_BACKLOG_SECONDS (default 20 s). The
 * workers must read due rows in pages and hold a bounded number of payloads: the target is under 200 MB.
 * On SQLite by default; on PostgreSQL when TEST_DATABASE_URL is set (a fresh database, dropped afterwards).
 * `node api/bench/backlog.ts`, or `benchBacklog()` from the runner.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createDb } from '../src/db/connection.ts';
import { migrateLatest } from '../src/db/migrate.ts';
import { loadConfig } from '../src/lib/config.ts';
import { createOrganization } from '../src/features/organization/service.ts';
import { webhookDelivery } from '../src/features/webhooks/dispatch.ts';
import { enqueueMany } from '../src/outbox/deliveries.ts';
import { loadSecretBox } from '../src/outbound/encryption-key.ts';
import { testDatabase } from '../test/database.ts';
import { insertKudosSubscription, rssMb, startServe, stop } from './lib.ts';

export interface BacklogBenchResult {
  engine: 'sqlite' | 'postgres';
  pending: number;
  seconds: number;
  delivered: number;
  idleRssMb: number;
  peakRssMb: number;
}

const here = path.dirname(new URL(import.meta.url).pathname);
const CERT_FILE = path.join(here, '..', 'test', 'fixtures', 'localhost-cert.pem');

/** The benchmark's HTTPS receiver in its own process; resolves with its port and a stop function. */
async function startReceiver(secret: string): Promise<{ port: number; received: () => number; close: () => void }> {
  const child = fork(new URL('./receiver-process.ts', import.meta.url), { env: { ...process.env, BENCH_SECRET: secret }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let received = 0;
  const port = await new Promise<number>((resolve) => {
    child.on('message', (m: { port?: number; receipts?: unknown[] }) => {
      if (m.port) resolve(m.port);
      received += m.receipts?.length ?? 0;
    });
  });
  return { port, received: () => received, close: () => child.send('close') };
}

export async function benchBacklog(options: { count?: number; seconds?: number; print?: boolean } = {}): Promise<BacklogBenchResult> {
  const count = options.count ?? Number(process.env.BENCH_BACKLOG_COUNT ?? 100_000);
  const seconds = options.seconds ?? Number(process.env.BENCH_BACKLOG_SECONDS ?? 20);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-backlog-'));
  const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
  const database = await testDatabase(dir, { engine });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    REQUIRE_HTTPS: 'false',
    DATA_DIR: dir,
    DATABASE_URL: database.url,
    PORT: '0',
    HOST: '127.0.0.1',
    ALLOW_PRIVATE_WEBHOOKS: 'true',
    NODE_EXTRA_CA_CERTS: CERT_FILE,
  };
  const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
  const receiver = await startReceiver(secret);
  let server: Awaited<ReturnType<typeof startServe>> | null = null;
  try {
    const db = createDb(database.url);
    try {
      await migrateLatest(db);
      const now = new Date();
      const org = await createOrganization(db, { name: 'Backlog', plan: 'enterprise' }, now);
      const sub = await insertKudosSubscription(db, {
        organizationUuid: org.uuid,
        hookUrl: `https://127.0.0.1:${receiver.port}/hook`,
        name: 'backlog',
        secretEncrypted: loadSecretBox(loadConfig(env)).encrypt(secret),
        now,
      });
      const content = 'x'.repeat(1000);
      for (let seq = 0; seq < count; seq += 2000) {
        const batch = Array.from({ length: Math.min(2000, count - seq) }, (_, i) => webhookDelivery(sub, 'kudos.posted', now.toISOString(), { seq: seq + i, content }));
        await db.transaction((trx) => enqueueMany(trx, batch, now));
      }
    } finally {
      await db.destroy();
    }
    server = await startServe(env, /"url":"(http:\/\/[\d.:]+)"/);
    const pid = server.child.pid!;
    const idleRssMb = rssMb(pid);
    let peakRssMb = idleRssMb;
    const started = Date.now();
    while (Date.now() - started < seconds * 1000 && receiver.received() < count) {
      await new Promise((r) => setTimeout(r, 100));
      peakRssMb = Math.max(peakRssMb, rssMb(pid));
    }
    const result: BacklogBenchResult = { engine, pending: count, seconds: Math.round((Date.now() - started) / 100) / 10, delivered: receiver.received(), idleRssMb, peakRssMb };
    if (options.print) {
      console.log(
        `delivery backlog: ${count} pending webhook deliveries (~1 KB each) on ${engine}, drained by a rollcall serve process for ${result.seconds} s\n` +
          `  received ${result.delivered}; resident memory ${idleRssMb} MB at start, peak ${peakRssMb} MB (target < 200 MB: ${peakRssMb < 200 ? 'met' : 'MISSED'})`,
      );
    }
    return result;
  } finally {
    if (server) await stop(server.child);
    receiver.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await benchBacklog({ print: true });
}
