/**
 * Sync benchmark: 100 clients keep a local copy of 5 boards (20 each: the board snapshot, then its delta feed
 * every BENCH_SYNC_POLL_MS, default 250 ms: the delta ceiling of 240 a minute) while 20 writers create, rename and
 * move tasks on them (each every BENCH_SYNC_WRITE_MS, default 1,000 ms: the write ceiling of 60 a minute), for BENCH_SYNC_SECONDS
 * (default BENCH_SECONDS, else 20 s), beside the GET /v1/me/ throughput of the same 120 clients (closed loop,
 * BENCH_BASELINE_SECONDS). Each create and rename carries a title of its own; the load generator notes when a
 * poller first sees it in a delta answer: the time from the write's answer (its commit is before) to its
 * visibility in the feed. Then 20 clients search (GET /v1/plan/search/?q=) an organization of
 * BENCH_SYNC_SEARCH_TASKS tasks (default 100,000, seeded directly with the tasks benchmark's seed) for
 * BENCH_SYNC_SEARCH_SECONDS (default 10 s), each every 500 ms (the read ceiling of 120 a minute).
 *
 * Targets: delta p99 under 20 ms, visibility p99 under 100 ms, search p99 under 50 ms. Against a real
 * `rollcall serve` process, driven from another process (http-load.ts). `node api/bench/sync.ts`, or `benchSync()`.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { round1, rssMb, runLoadProcess, seedPeople, summarize, withSeededServe, cpuText } from './lib.ts';
import type { EndpointResult } from './lib.ts';
import type { LoadClient, SyncTarget, TasksTarget } from './http-load.ts';
import { asPlanWrite, seed as seedTasks } from './tasks.ts';
import { createDb } from '../src/db/connection.ts';
import { migrateLatest } from '../src/db/migrate.ts';
import { createOrganization } from '../src/features/organization/service.ts';
import { createBoard } from '../src/features/plan/boards/service.ts';
import { createTask } from '../src/features/plan/tasks/service.ts';

const BOARDS = 5;
const POLLERS = 100;
const WRITERS = 20;
const SEARCHERS = 20;
const TASKS_PER_BOARD = 200;

export interface SyncBenchResult {
  seconds: number;
  baseline: EndpointResult;
  snapshot: EndpointResult;
  delta: EndpointResult;
  writes: EndpointResult;
  visibility: { tracked: number; p50Ms: number; p99Ms: number; unseen: number };
  search: EndpointResult & { tasks: number };
  ratio: number;
  rssMb: number;
  non2xx: number;
  targets: Record<string, boolean>;
}

interface Seeded {
  clients: LoadClient[];
  sync: Omit<SyncTarget, 'pollMs' | 'writeMs'>;
  searchers: LoadClient[];
  words: TasksTarget;
}

/** The 5 boards of a Sync organization (200 tasks each, through the task service), and the search organization. */
async function seed(databaseUrl: string, searchTasks: number): Promise<Seeded> {
  const searched = await seedTasks(databaseUrl, searchTasks);
  const db = createDb(databaseUrl);
  try {
    await migrateLatest(db);
    const now = new Date();
    const org = await createOrganization(db, { name: 'Sync', plan: 'enterprise', planBetaEnabled: true }, now);
    const people = await seedPeople(db, org.uuid, POLLERS + WRITERS, now, 'syncer');
    const clients: LoadClient[] = people.map((person, i) => ({ key: person.key, agentName: '', coAuthor: '', role: i < POLLERS ? 'poller' : 'writer' }));
    const boards = await asPlanWrite(db, clients[0].key, async (w) => {
      const made = [];
      for (let b = 0; b < BOARDS; b++) {
        const board = await createBoard(w, { name: `Synced ${b + 1}`, key: `SYNC${b + 1}` });
        const states: string[] = (await w.db('plan_states').where({ board_uuid: board.uuid }).select('uuid')).map((s: { uuid: string }) => s.uuid);
        for (let i = 0; i < TASKS_PER_BOARD; i++) await createTask(w, board.uuid, { title: `Seeded task ${i}`, state: states[i % states.length] } as never, { lockTimeoutMs: 5000 });
        made.push({ uuid: board.uuid, states });
      }
      return made;
    });
    return { clients, sync: { boards }, searchers: searched.clients.slice(0, SEARCHERS), words: searched.target };
  } finally {
    await db.destroy();
  }
}

const p = (values: number[], q: number) => round1([...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0);

export async function benchSync(options: { seconds?: number; print?: boolean } = {}): Promise<SyncBenchResult> {
  const seconds = options.seconds ?? Number(process.env.BENCH_SYNC_SECONDS ?? process.env.BENCH_SECONDS ?? 20);
  const baselineSeconds = Number(process.env.BENCH_BASELINE_SECONDS ?? Math.min(10, seconds));
  const searchSeconds = Number(process.env.BENCH_SYNC_SEARCH_SECONDS ?? Math.min(10, seconds));
  const searchTasks = Number(process.env.BENCH_SYNC_SEARCH_TASKS ?? 100_000);
  const pollMs = Number(process.env.BENCH_SYNC_POLL_MS ?? 250);
  const writeMs = Number(process.env.BENCH_SYNC_WRITE_MS ?? 1000);
  const searchMs = Number(process.env.BENCH_SYNC_SEARCH_MS ?? 500);
  const log = options.print === false ? () => {} : (line: string) => console.log(line);
  const started = performance.now();
  const runs = await withSeededServe(
    'sync',
    (url) => seed(url, searchTasks),
    async (url, seeded, dir, pid) => {
      log(`  seeded 5 boards of ${TASKS_PER_BOARD} tasks and ${searchTasks} tasks to search in ${round1((performance.now() - started) / 1000)} s`);
      const sync = { ...seeded.sync, pollMs, writeMs };
      await runLoadProcess({ url, seconds: 2, mode: 'sync', sync, clients: seeded.clients });
      const baseline = await runLoadProcess({ url, seconds: baselineSeconds, mode: 'me', clients: seeded.clients }, pid);
      const synced = await runLoadProcess({ url, seconds, mode: 'sync', sync, clients: seeded.clients }, pid);
      const search = await runLoadProcess({ url, seconds: searchSeconds, mode: 'search', tasks: seeded.words, clients: seeded.searchers, intervalMs: searchMs }, pid);
      return { baseline, synced, search, dir, rss: rssMb(pid) };
    },
  );
  const baseline = summarize('GET /v1/me/ (baseline)', runs.baseline.latencies.me ?? [], runs.baseline.elapsedSeconds);
  const latency = (name: string, label = name) => summarize(label, runs.synced.latencies[name] ?? [], runs.synced.elapsedSeconds);
  const snapshot = latency('snapshot', 'board snapshot');
  const delta = latency('delta', 'delta feed');
  // Not a target of its own: whether the whole phase's p99 comes from the burst of snapshots at its start.
  const deltaSettled = latency('delta after the snapshots', '… once all have their snapshot');
  const writes = summarize('writes (create, rename, move)', ['write: create', 'write: patch', 'write: move'].flatMap((name) => runs.synced.latencies[name] ?? []), runs.synced.elapsedSeconds);
  const visible = runs.synced.visibility ?? [];
  const visibility = { tracked: visible.length, p50Ms: p(visible, 0.5), p99Ms: p(visible, 0.99), unseen: runs.synced.unseen ?? 0 };
  const search = { ...summarize('search', runs.search.latencies.search ?? [], runs.search.elapsedSeconds), tasks: searchTasks };
  const result: SyncBenchResult = {
    seconds,
    baseline,
    snapshot,
    delta,
    writes,
    visibility,
    search,
    ratio: Math.round(((delta.reqPerSec + writes.reqPerSec) / baseline.reqPerSec) * 100) / 100,
    rssMb: runs.rss,
    non2xx: [runs.baseline, runs.synced, runs.search].reduce((sum, run) => sum + run.non2xx + run.errors, 0),
    targets: {
      deltaP99Under20ms: delta.p99Ms < 20,
      visibilityP99Under100ms: visibility.p99Ms < 100 && visibility.unseen === 0,
      searchP99Under50ms: search.p99Ms < 50,
    },
  };
  const line = (m: EndpointResult) => log(`  ${m.name.padEnd(30)} ${String(m.requests).padStart(7)} req  ${String(m.reqPerSec).padStart(8)} req/s  p50 ${m.p50Ms} ms  p99 ${m.p99Ms} ms`);
  log(`Sync benchmark: ${POLLERS} clients polling the delta feeds of ${BOARDS} boards every ${pollMs} ms while ${WRITERS} writers write every ${writeMs} ms, ${seconds} s (baseline ${baselineSeconds} s), SQLite in ${runs.dir}`);
  [baseline, snapshot, delta, deltaSettled, writes].forEach(line);
  log(`  ratio (delta + writes) req/s / baseline req/s: ${result.ratio}`);
  log(`  ${cpuText(runs.baseline.serverCpu)} for /v1/me/, ${runs.synced.serverCpu?.processUs} µs for the sync mix`);
  log(`  visibility, write answered → seen in a delta answer: ${visibility.tracked} writes, p50 ${visibility.p50Ms} ms, p99 ${visibility.p99Ms} ms, ${visibility.unseen} never seen`);
  log(`  search over ${searchTasks} tasks, ${SEARCHERS} clients every ${searchMs} ms, ${searchSeconds} s:`);
  line(search);
  log(`  ${cpuText(runs.search.serverCpu)} for the searches`);
  log(`  server RSS ${runs.rss} MB; non-2xx or errors: ${result.non2xx}`);
  log(`  targets: ${Object.entries(result.targets).map(([name, ok]) => `${name} ${ok ? 'met' : 'MISSED'}`).join(', ')}`);
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await benchSync({ print: true });
}
