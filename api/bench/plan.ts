/**
 * Plan benchmark: 50 clients, each the manager of its own board, create and read labels and states for
 * BENCH_PLAN_SECONDS (default 20 s), every write with an Idempotency-Key; req/s and p99 per operation beside the
 * GET /v1/me/ throughput of the same 50 clients in the same run (BENCH_BASELINE_SECONDS, default 10 s).
 *
 * Two load shapes, as in the agents benchmark: closed loop (each client sends its next request when the last
 * answered: throughput, where p99 follows from saturation) and open loop (each client every
 * BENCH_PLAN_INTERVAL_MS, default 250 ms: latency at a given load). Targets: write p99 under 50 ms, read p99 under
 * 20 ms.
 *
 * Then what the frame adds to a write, measured one request at a time in this process (nothing else running):
 * the same label write with and without an Idempotency-Key (the key's claim and stored answer), and the label
 * service in its transaction with the real change log and with one that records nothing. Target: the two together
 * under 30 % of a write.
 *
 * The load runs against a real `rollcall serve` process on a seeded temporary DATA_DIR, from another process
 * (http-load.ts). `node api/bench/plan.ts`, or `benchPlan()` from the runner.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuSeconds, cpuText, machineBusy, median, round1, runLoadProcess, seedPeople, summarize, withSeededServe } from './lib.ts';
import type { EndpointResult } from './lib.ts';
import type { LoadClient, LoadOutput } from './http-load.ts';
import { planPerson, sequentialClient, startInProcessApp } from './in-process-app.ts';
import { createDb } from '../src/db/connection.ts';
import type { Db } from '../src/db/connection.ts';
import { migrateLatest } from '../src/db/migrate.ts';
import { createOrganization } from '../src/features/organization/service.ts';
import { lookupCredential } from '../src/auth/credentials.ts';
import { ChangeLog } from '../src/outbox/plan-changes.ts';
import type { Change, RecordedChange } from '../src/outbox/plan-changes.ts';
import { ORGANIZATION_EVENTS } from '../src/features/webhooks/events.ts';
import { sha256Hex } from '../src/lib/secrets.ts';
import { createLabel } from '../src/features/plan/labels/service.ts';
import { measureFrameStages, printFrameStages } from './plan-frame.ts';
import type { FrameStages } from './plan-frame.ts';

const CLIENTS = 50;
const WRITES = ['label write', 'state write'];
const READS = ['label read', 'state read'];

export interface PlanBenchResult {
  clients: number;
  seconds: number;
  baseline: EndpointResult;
  closedLoop: { operations: EndpointResult[]; writes: EndpointResult; reads: EndpointResult; ratio: number };
  paced: { intervalMs: number; offeredReqPerSec: number; operations: EndpointResult[]; writes: EndpointResult; reads: EndpointResult };
  cost: WriteCost;
  /** What each stage of the per-request frame costs (bench/plan-frame.ts). */
  frame: FrameStages;
  /** What bounded the closed loop on SQLite, and the same mix on PostgreSQL when TEST_DATABASE_URL is set. */
  bound: Bound;
  postgres: EngineFigures | null;
  non2xx: number;
  targets: { writeP99Under50msPaced: boolean; readP99Under20msPaced: boolean; writeP99Under50msClosedLoop: boolean; readP99Under20msClosedLoop: boolean; frameUnder30Percent: boolean };
}

export interface WriteCost {
  samples: number;
  /** Medians, in microseconds. */
  writeWithKeyUs: number;
  writeWithoutKeyUs: number;
  serviceWithLogUs: number;
  serviceWithoutLogUs: number;
  idempotencyShare: number;
  changeLogShare: number;
}

/** A migrated database with one enterprise organization (Plan on) and 50 members, each with a personal key. */
async function seed(databaseUrl: string): Promise<LoadClient[]> {
  const db = createDb(databaseUrl);
  try {
    await migrateLatest(db);
    const now = new Date();
    const org = await createOrganization(db, { name: 'Bench', plan: 'enterprise', planBetaEnabled: true }, now);
    return (await seedPeople(db, org.uuid, CLIENTS, now)).map(({ key }) => ({ key, agentName: '', coAuthor: '' }));
  } finally {
    await db.destroy();
  }
}

/** Each client creates the board it will work on (and so manages it). */
async function createBoards(url: string, clients: LoadClient[]): Promise<void> {
  await Promise.all(
    clients.map(async (client, i) => {
      const res = await fetch(`${url}/v1/plan/boards/`, {
        method: 'POST',
        headers: { 'x-api-key': client.key, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Board ${i}`, key: `B${i}` }),
      });
      if (res.status !== 201) throw new Error(`board ${i}: ${res.status} ${await res.text()}`);
      client.board = ((await res.json()) as { uuid: string }).uuid;
    }),
  );
}

interface EngineFigures {
  meReqPerSec: number;
  readsReqPerSec: number;
  writesReqPerSec: number;
  readRatio: number;
  writeRatio: number;
  closedP99Ms: { reads: number; writes: number };
  pacedP99Ms: { reads: number; writes: number };
  bound: Bound;
}

/** One engine's closed-loop throughput against its own /v1/me/, its p99s, and what bounded it. */
function engineFigures(runs: { baseline: LoadOutput; closed: LoadOutput; paced: LoadOutput; bound: Bound }): EngineFigures {
  const me = summarize('me', runs.baseline.latencies.me ?? [], runs.baseline.elapsedSeconds).reqPerSec;
  const closed = figures(runs.closed);
  const paced = figures(runs.paced);
  const ratio = (x: number) => Math.round((x / me) * 1000) / 1000;
  return {
    meReqPerSec: me,
    readsReqPerSec: closed.reads.reqPerSec,
    writesReqPerSec: closed.writes.reqPerSec,
    readRatio: ratio(closed.reads.reqPerSec),
    writeRatio: ratio(closed.writes.reqPerSec),
    closedP99Ms: { reads: closed.reads.p99Ms, writes: closed.writes.p99Ms },
    pacedP99Ms: { reads: paced.reads.p99Ms, writes: paced.writes.p99Ms },
    bound: runs.bound,
  };
}

function figures(run: LoadOutput) {
  const operations = [...WRITES, ...READS].map((name) => summarize(name, run.latencies[name] ?? [], run.elapsedSeconds));
  const merged = (names: string[], label: string) => summarize(label, names.flatMap((name) => run.latencies[name] ?? []), run.elapsedSeconds);
  return { operations, writes: merged(WRITES, 'writes (labels + states)'), reads: merged(READS, 'reads (labels + states)') };
}


/** The change log as it would be without its rows: what a write costs without recording its change. */
class UnrecordedChanges extends ChangeLog {
  override async record(change: Change): Promise<RecordedChange> {
    return { ...change, seq: 0 };
  }
}

/** What the frame's Idempotency-Key and change log add to one label write (sequential, in this process). */
export async function measureWriteCost(samples = Number(process.env.BENCH_PLAN_COST_SAMPLES ?? 1000)): Promise<WriteCost> {
  const app = await startInProcessApp('plan');
  const db: Db = app.db;
  const { key } = await planPerson(db, 'Cost');
  const now = new Date();
  const client = sequentialClient(app.url, key);
  try {
    const post = (pathname: string, body: unknown, headers: Record<string, string> = {}) => client.send('POST', pathname, body, headers);
    const board = JSON.parse((await post('/v1/plan/boards/', { name: 'Cost', key: 'COST' })).text).uuid as string;

    // Through HTTP, alternating, so drift of this machine's speed falls on both alike.
    const withKey: number[] = [];
    const withoutKey: number[] = [];
    for (let i = 0; i < samples * 2 + 200; i++) {
      const keyed = i % 2 === 0;
      const res = await post(`/v1/plan/boards/${board}/labels/`, { name: `http ${i}` }, keyed ? { 'idempotency-key': `cost-key-${i}` } : {});
      if (res.status !== 201) throw new Error(`label write answered ${res.status}: ${res.text}`);
      if (i >= 200) (keyed ? withKey : withoutKey).push(res.us);
    }

    // The service in its transaction, with and without the change log's rows.
    const resolution = await lookupCredential(db, { kind: 'api_key', hash: sha256Hex(key) }, now);
    if (!resolution.ok) throw new Error('cost key did not resolve');
    const actor = resolution.actor;
    const withLog: number[] = [];
    const withoutLog: number[] = [];
    for (let i = 0; i < samples * 2 + 200; i++) {
      const logged = i % 2 === 0;
      const started = performance.now();
      await db.transaction(async (trx) => {
        const at = new Date();
        const changes = logged ? new ChangeLog(trx, actor, null, at, ORGANIZATION_EVENTS) : new UnrecordedChanges(trx, actor, null, at, ORGANIZATION_EVENTS);
        await createLabel({ db: trx, actor, now: at, changes, agentName: null, dryRun: false }, board, { name: `service ${i}` });
      });
      if (i >= 200) (logged ? withLog : withoutLog).push((performance.now() - started) * 1000);
    }
    const write = median(withKey);
    const cost = {
      samples,
      writeWithKeyUs: Math.round(write),
      writeWithoutKeyUs: Math.round(median(withoutKey)),
      serviceWithLogUs: Math.round(median(withLog)),
      serviceWithoutLogUs: Math.round(median(withoutLog)),
      idempotencyShare: 0,
      changeLogShare: 0,
    };
    cost.idempotencyShare = round1(((cost.writeWithKeyUs - cost.writeWithoutKeyUs) / write) * 100);
    cost.changeLogShare = round1(((cost.serviceWithLogUs - cost.serviceWithoutLogUs) / write) * 100);
    return cost;
  } finally {
    client.close();
    await app.close();
  }
}

/** What bounds a closed-loop phase: the server process's CPU (in cores: 1 is its one JavaScript thread busy) and the machine's. */
interface Bound {
  serverCores: number;
  machineBusy: number;
}

/** The baseline, closed and paced phases against one `rollcall serve` process on `engine`. */
async function runPhases(engine: 'sqlite' | 'postgres', seconds: number, baselineSeconds: number, intervalMs: number) {
  return withSeededServe(
    `plan-${engine}`,
    seed,
    async (url, clients, dir, pid) => {
      await createBoards(url, clients);
      await runLoadProcess({ url, seconds: 2, mode: 'plan', runId: 'warm', clients });
      const baseline = await runLoadProcess({ url, seconds: baselineSeconds, mode: 'me', clients }, pid);
      const cpuBefore = cpuSeconds(pid);
      const busy = machineBusy();
      const closed = await runLoadProcess({ url, seconds, mode: 'plan', runId: 'closed', clients }, pid);
      const bound: Bound = { serverCores: round1((cpuSeconds(pid) - cpuBefore) / closed.elapsedSeconds), machineBusy: busy() };
      const paced = await runLoadProcess({ url, seconds, mode: 'plan', runId: 'paced', clients, intervalMs }, pid);
      return { baseline, closed, paced, dir, bound };
    },
    { engine },
  );
}

export async function benchPlan(options: { seconds?: number; baselineSeconds?: number; print?: boolean } = {}): Promise<PlanBenchResult> {
  const seconds = options.seconds ?? Number(process.env.BENCH_PLAN_SECONDS ?? 20);
  const baselineSeconds = options.baselineSeconds ?? Number(process.env.BENCH_BASELINE_SECONDS ?? 10);
  const intervalMs = Number(process.env.BENCH_PLAN_INTERVAL_MS ?? 250);
  const log = options.print === false ? () => {} : (line: string) => console.log(line);
  const runs = await runPhases('sqlite', seconds, baselineSeconds, intervalMs);
  // The same mix on PostgreSQL (one process), when a server is given.
  const postgres = process.env.TEST_DATABASE_URL ? await runPhases('postgres', seconds, baselineSeconds, intervalMs) : null;
  // Measured after the server has stopped, so nothing else runs beside it.
  const cost = await measureWriteCost();
  const frame = await measureFrameStages();

  const baseline = summarize('GET /v1/me/ (baseline)', runs.baseline.latencies.me ?? [], runs.baseline.elapsedSeconds);
  const closed = figures(runs.closed);
  const paced = figures(runs.paced);
  const ratio = Math.round(((closed.writes.reqPerSec + closed.reads.reqPerSec) / baseline.reqPerSec) * 100) / 100;
  const pg = postgres ? engineFigures(postgres) : null;
  const result: PlanBenchResult = {
    clients: CLIENTS,
    seconds,
    baseline,
    closedLoop: { ...closed, ratio },
    paced: { intervalMs, offeredReqPerSec: round1((CLIENTS * 1000) / intervalMs), ...paced },
    cost,
    frame,
    bound: runs.bound,
    postgres: pg,
    non2xx: [runs.baseline, runs.closed, runs.paced, ...(postgres ? [postgres.baseline, postgres.closed, postgres.paced] : [])].reduce((sum, run) => sum + run.non2xx + run.errors, 0),
    targets: {
      writeP99Under50msPaced: paced.writes.p99Ms < 50,
      readP99Under20msPaced: paced.reads.p99Ms < 20,
      writeP99Under50msClosedLoop: closed.writes.p99Ms < 50,
      readP99Under20msClosedLoop: closed.reads.p99Ms < 20,
      frameUnder30Percent: cost.idempotencyShare + cost.changeLogShare < 30,
    },
  };
  const line = (m: EndpointResult) => log(`  ${m.name.padEnd(28)} ${String(m.requests).padStart(7)} req  ${String(m.reqPerSec).padStart(8)} req/s  p50 ${m.p50Ms} ms  p99 ${m.p99Ms} ms`);
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  log(`Plan benchmark: ${CLIENTS} clients, each managing its own board, against a rollcall serve process, ${seconds} s (baseline ${baselineSeconds} s), SQLite in ${runs.dir}`);
  log('  closed loop (throughput), every write with an Idempotency-Key:');
  [baseline, ...closed.operations, closed.writes, closed.reads].forEach(line);
  log(`  ratio Plan req/s / baseline req/s: ${ratio}`);
  log(`  ${cpuText(runs.baseline.serverCpu)} for /v1/me/, ${runs.closed.serverCpu?.processUs} µs for the Plan mix closed loop, ${runs.paced.serverCpu?.processUs} µs paced`);
  log(`  open loop (latency), each client every ${intervalMs} ms, ${result.paced.offeredReqPerSec} req/s offered:`);
  [...paced.operations, paced.writes, paced.reads].forEach(line);
  const sqlite = engineFigures(runs);
  const row = (name: string, f: EngineFigures) =>
    log(
      `  ${name.padEnd(10)} /v1/me/ ${String(f.meReqPerSec).padStart(7)} req/s | reads ${String(f.readsReqPerSec).padStart(6)} req/s (${f.readRatio}), writes ${String(f.writesReqPerSec).padStart(6)} req/s (${f.writeRatio}) | ` +
        `closed p99 ${f.closedP99Ms.reads} / ${f.closedP99Ms.writes} ms, paced p99 ${f.pacedP99Ms.reads} / ${f.pacedP99Ms.writes} ms (reads / writes) | server ${f.bound.serverCores} cores, machine ${Math.round(f.bound.machineBusy * 100)} % busy`,
    );
  log('  by engine (closed loop; in parentheses, each against /v1/me/ of the same run and engine; what bounds it: the server\'s CPU in cores, the machine\'s):');
  row('SQLite', sqlite);
  if (pg) row('PostgreSQL', pg);
  else log('  PostgreSQL: skipped (set TEST_DATABASE_URL to a PostgreSQL server)');
  log(`  non-2xx or errors: ${result.non2xx}`);
  log(`  one label write at a time (medians of ${cost.samples}): with Idempotency-Key ${cost.writeWithKeyUs} µs, without ${cost.writeWithoutKeyUs} µs → the key costs ${cost.idempotencyShare} %`);
  log(`    the service in its transaction: with the change log ${cost.serviceWithLogUs} µs, without its rows ${cost.serviceWithoutLogUs} µs → the change log costs ${cost.changeLogShare} % of the write`);
  printFrameStages(frame, log);
  log(
    `  targets: write p99 < 50 ms paced ${verdict(result.targets.writeP99Under50msPaced)}, closed loop ${verdict(result.targets.writeP99Under50msClosedLoop)}; ` +
      `read p99 < 20 ms paced ${verdict(result.targets.readP99Under20msPaced)}, closed loop ${verdict(result.targets.readP99Under20msClosedLoop)}; ` +
      `idempotency + change log < 30 % of a write ${verdict(result.targets.frameUnder30Percent)} (${round1(cost.idempotencyShare + cost.changeLogShare)} %)`,
  );
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await benchPlan({ print: true });
}
