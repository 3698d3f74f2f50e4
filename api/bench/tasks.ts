/**
 * Tasks benchmark: one board of BENCH_TASKS_COUNT tasks (default 50,000: 40,000 live over 12 columns, 10,000
 * archived), 50 clients creating, moving and patching tasks while 50 others list it (filtered by state and label,
 * by owner and label) and search it, for BENCH_TASKS_SECONDS (default 20 s), beside the GET /v1/me/ throughput of
 * the same 100 clients (BENCH_BASELINE_SECONDS, default 10 s). Closed loop (throughput), then open loop (each
 * client every BENCH_TASKS_INTERVAL_MS, default 500 ms: latency at a given load).
 *
 * Targets: create and move p99 under 50 ms, patch under 30 ms, a filtered list page of 50 p99 under 30 ms, search p99 under 50 ms,
 * no duplicate or missing KEY-n, server RSS under 250 MB. Against a real `rollcall serve` process on a seeded
 * temporary DATA_DIR, driven from another process (http-load.ts). `node api/bench/tasks.ts`, or `benchTasks()`.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateNKeysBetween } from 'fractional-indexing';
import { round1, rssMb, runLoadProcess, seedPeople, summarize, withSeededServe, cpuText } from './lib.ts';
import type { EndpointResult } from './lib.ts';
import type { LoadClient, LoadOutput, TasksTarget } from './http-load.ts';
import { createDb } from '../src/db/connection.ts';
import type { Db } from '../src/db/connection.ts';
import { migrateLatest } from '../src/db/migrate.ts';
import { createOrganization } from '../src/features/organization/service.ts';
import { lookupCredential } from '../src/auth/credentials.ts';
import { ChangeLog } from '../src/outbox/plan-changes.ts';
import { ORGANIZATION_EVENTS } from '../src/features/webhooks/events.ts';
import { sha256Hex } from '../src/lib/secrets.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { createBoard } from '../src/features/plan/boards/service.ts';
import { createState } from '../src/features/plan/states/service.ts';
import { createLabel } from '../src/features/plan/labels/service.ts';
import { indexTask } from '../src/features/plan/search/index.ts';
import type { PlanWrite } from '../src/features/plan/frame/context.ts';

const WRITERS = 50;
const LISTERS = 50;
const WRITES = ['create', 'move', 'patch'];
const LISTS = ['list: state + label', 'list: owner + label'];
/**
 * Titles and descriptions draw on 400 words (50 roots, 8 forms each), so a word is in about 2 % of tasks, as in a
 * real backlog's vocabulary; searches ask for whole words and for prefixes shared by a root's forms.
 */
const ROOTS = [
  'deploy', 'login', 'cache', 'billing', 'invoice', 'search', 'export', 'import', 'session', 'timeout', 'retry', 'webhook', 'mobile', 'android',
  'ios', 'release', 'migration', 'schema', 'index', 'latency', 'memory', 'report', 'dashboard', 'filter', 'archive', 'upload', 'download',
  'avatar', 'profile', 'settings', 'onboarding', 'signup', 'password', 'email', 'digest', 'calendar', 'timezone', 'locale', 'translation',
  'accessibility', 'keyboard', 'shortcut', 'tooltip', 'modal', 'sidebar', 'navigation', 'breadcrumb', 'pagination', 'sorting', 'payment',
];
const WORDS = ROOTS.flatMap((root) => ['', 's', 'ed', 'er', 'ing', 'able', 'less', 'ness'].map((ending) => `${root}${ending}`));
const SEARCHES = [...ROOTS.slice(0, 30).map((root, i) => `${root}${['', 'ing', 'ed', 's', 'er'][i % 5]}`), 'dep', 'sess', 'pay', 'login fail', 'cache inv'];

export interface TasksBenchResult {
  tasks: number;
  clients: number;
  seconds: number;
  baseline: EndpointResult;
  closedLoop: Phase & { ratio: number };
  paced: Phase & { intervalMs: number; offeredReqPerSec: number };
  keys: { tasks: number; duplicates: number; gaps: number };
  rssMb: number;
  non2xx: number;
  targets: Record<string, boolean>;
}

interface Phase {
  operations: EndpointResult[];
  writes: EndpointResult;
  lists: EndpointResult;
}

interface Seeded {
  clients: LoadClient[];
  target: TasksTarget;
}

/** An actor's PlanWrite over one transaction, for seeding through the services the API uses. */
export async function asPlanWrite<T>(db: Db, key: string, work: (w: PlanWrite) => Promise<T>): Promise<T> {
  const resolution = await lookupCredential(db, { kind: 'api_key', hash: sha256Hex(key) }, new Date());
  if (!resolution.ok) throw new Error('seed key did not resolve');
  const actor = resolution.actor;
  return db.transaction(async (trx) => {
    const now = new Date();
    return work({ db: trx, actor, now, changes: new ChangeLog(trx, actor, null, now, ORGANIZATION_EVENTS), agentName: null, dryRun: false });
  });
}

/** The organization, 100 people with keys, one board of 12 columns and 20 labels, and its tasks written directly. */
export async function seed(databaseUrl: string, count: number): Promise<Seeded> {
  const db = createDb(databaseUrl);
  try {
    await migrateLatest(db);
    const now = new Date();
    const org = await createOrganization(db, { name: 'Bench', plan: 'enterprise', planBetaEnabled: true }, now);
    const people = await seedPeople(db, org.uuid, WRITERS + LISTERS, now);
    const clients: LoadClient[] = people.map((person, i) => ({ key: person.key, agentName: '', coAuthor: '', role: i < WRITERS ? 'writer' : 'lister', owner: person.uuid }));
    const { board, states, labels } = await asPlanWrite(db, clients[0].key, async (w) => {
      const board = await createBoard(w, { name: 'Big board', key: 'BIG' });
      for (let i = 0; i < 7; i++) await createState(w, board.uuid, { name: `Stage ${i + 1}`, category: 'in_progress' });
      const states = await w.db('plan_states').where({ board_uuid: board.uuid }).orderBy('position');
      const labels = [];
      for (let i = 0; i < 20; i++) labels.push((await createLabel(w, board.uuid, { name: `label ${i}` })).uuid);
      return { board, states, labels };
    });
    // Todo (the default) keeps room for what the writers create; three columns take their moves; the rest are full-ish.
    const todo = states.find((s) => s.name === 'Todo')!;
    const done = states.find((s) => s.name === 'Done')!;
    const others = states.filter((s) => s !== todo);
    const moveTo = others.filter((s) => s.name.startsWith('Stage')).slice(-3);
    const full = others.filter((s) => !moveTo.includes(s));
    const live = Math.round(count * 0.8);
    const plan: { state: string; live: number; archived: number }[] = [
      { state: todo.uuid, live: Math.round(live * 0.025), archived: 0 },
      ...moveTo.map((s) => ({ state: s.uuid, live: Math.round(live * 0.05), archived: 0 })),
    ];
    const rest = live - plan.reduce((sum, p) => sum + p.live, 0);
    for (const [i, s] of full.entries()) plan.push({ state: s.uuid, live: Math.floor(rest / full.length) + (i < rest % full.length ? 1 : 0), archived: s === done ? count - live : 0 });

    let number = 0;
    const owners = people.map((p) => p.uuid);
    await db.transaction(async (trx) => {
      for (const column of plan) {
        const ranks = generateNKeysBetween(null, null, column.live + column.archived);
        const rows = ranks.map((rank, i) => {
          number++;
          const word = (k: number) => WORDS[(number * 7919 + k * 104_729) % WORDS.length];
          const at = new Date(now.getTime() - (count - number) * 60_000).toISOString();
          return {
            uuid: uuidv7(now.getTime() - (count - number) * 60_000), organization_uuid: org.uuid, board_uuid: board.uuid, number,
            title: `${word(1)} ${word(2)} ${word(3)} ${number}`, description: `The ${word(4)} ${word(5)} breaks when the ${word(6)} ${word(7)} is slow.`,
            state_uuid: column.state, owner_uuid: number % 5 === 0 ? null : owners[number % owners.length], priority: number % 6 === 0 ? null : 1 + (number % 5),
            due_date: number % 3 === 0 ? null : `2026-${String(1 + (number % 12)).padStart(2, '0')}-${String(1 + (number % 28)).padStart(2, '0')}`,
            version: 1, rank, created_by_uuid: owners[number % owners.length], created_at: at, updated_at: at,
            completed_at: column.state === done.uuid ? at : null, archived_at: i >= column.live ? at : null,
          };
        });
        // Batches of 200: Knex writes a multi-row insert on SQLite as a compound SELECT, at most 500 terms.
        for (let i = 0; i < rows.length; i += 200) {
          const batch = rows.slice(i, i + 200);
          await trx('plan_tasks').insert(batch);
          // One label each, a second on every fourth task.
          const tagged = batch.flatMap((t) => [...new Set([labels[t.number % labels.length], ...(t.number % 4 === 0 ? [labels[(t.number * 3 + 1) % labels.length]] : [])])].map((label) => ({ task_uuid: t.uuid, label_uuid: label })));
          await trx('plan_task_labels').insert(tagged);
          for (const task of batch) await indexTask(trx, task);
        }
      }
      await trx('plan_boards').where({ uuid: board.uuid }).update({ next_task_number: number + 1 });
    });
    const target: TasksTarget = { board: board.uuid, moveTo: moveTo.map((s) => s.uuid), states: others.map((s) => s.uuid), labels, words: SEARCHES };
    return { clients, target };
  } finally {
    await db.destroy();
  }
}

function phase(run: LoadOutput): Phase {
  const operations = [...WRITES, ...LISTS, 'search'].map((name) => summarize(name, run.latencies[name] ?? [], run.elapsedSeconds));
  const merged = (names: string[], label: string) => summarize(label, names.flatMap((name) => run.latencies[name] ?? []), run.elapsedSeconds);
  return { operations, writes: merged(WRITES, 'writes (create, move, patch)'), lists: merged([...LISTS, 'search'], 'lists and searches') };
}

/** Every KEY-n of the board once: numbers 1..next-1, each a task's current number or a former one. */
async function checkKeys(databaseUrl: string): Promise<{ tasks: number; duplicates: number; gaps: number }> {
  const db = createDb(databaseUrl);
  try {
    const board = (await db('plan_boards').where({ key: 'BIG' }).first())!;
    const numbers: number[] = (await db('plan_tasks').where({ board_uuid: board.uuid }).select('number')).map((r) => Number(r.number));
    const former: number[] = (await db('plan_task_keys').where({ board_uuid: board.uuid }).select('number')).map((r) => Number(r.number));
    const all = [...numbers, ...former];
    const distinct = new Set(all);
    return { tasks: numbers.length, duplicates: all.length - distinct.size, gaps: board.next_task_number - 1 - distinct.size };
  } finally {
    await db.destroy();
  }
}

export async function benchTasks(options: { seconds?: number; baselineSeconds?: number; print?: boolean } = {}): Promise<TasksBenchResult> {
  const seconds = options.seconds ?? Number(process.env.BENCH_TASKS_SECONDS ?? 20);
  const baselineSeconds = options.baselineSeconds ?? Number(process.env.BENCH_BASELINE_SECONDS ?? 10);
  const intervalMs = Number(process.env.BENCH_TASKS_INTERVAL_MS ?? 500);
  const count = Number(process.env.BENCH_TASKS_COUNT ?? 50_000);
  const log = options.print === false ? () => {} : (line: string) => console.log(line);
  let databaseUrl = '';
  const started = performance.now();
  const runs = await withSeededServe(
    'tasks',
    async (url) => {
      databaseUrl = url;
      return seed(url, count);
    },
    async (url, { clients, target }, dir, pid) => {
      log(`  seeded ${count} tasks in ${round1((performance.now() - started) / 1000)} s`);
      const job = { url, mode: 'tasks' as const, tasks: target, clients };
      await runLoadProcess({ ...job, seconds: 2, runId: 'warm' });
      const baseline = await runLoadProcess({ url, seconds: baselineSeconds, mode: 'me', clients }, pid);
      const closed = await runLoadProcess({ ...job, seconds, runId: 'closed' }, pid);
      const paced = await runLoadProcess({ ...job, seconds, runId: 'paced', intervalMs }, pid);
      return { baseline, closed, paced, dir, rss: rssMb(pid), keys: await checkKeys(databaseUrl) };
    },
  );
  const clients = WRITERS + LISTERS;
  const baseline = summarize('GET /v1/me/ (baseline)', runs.baseline.latencies.me ?? [], runs.baseline.elapsedSeconds);
  const closed = phase(runs.closed);
  const paced = phase(runs.paced);
  const p99 = (p: Phase, name: string) => p.operations.find((o) => o.name === name)!.p99Ms;
  const result: TasksBenchResult = {
    tasks: count,
    clients,
    seconds,
    baseline,
    closedLoop: { ...closed, ratio: Math.round(((closed.writes.reqPerSec + closed.lists.reqPerSec) / baseline.reqPerSec) * 100) / 100 },
    paced: { ...paced, intervalMs, offeredReqPerSec: round1((clients * 1000) / intervalMs) },
    keys: runs.keys,
    rssMb: runs.rss,
    non2xx: [runs.baseline, runs.closed, runs.paced].reduce((sum, run) => sum + run.non2xx + run.errors, 0),
    targets: {
      createP99Under50msPaced: p99(paced, 'create') < 50,
      moveP99Under50msPaced: p99(paced, 'move') < 50,
      patchP99Under30msPaced: p99(paced, 'patch') < 30,
      filteredListP99Under30msPaced: Math.max(...LISTS.map((name) => p99(paced, name))) < 30,
      searchP99Under50msPaced: p99(paced, 'search') < 50,
      noDuplicateKeys: runs.keys.duplicates === 0 && runs.keys.gaps === 0,
      rssUnder250Mb: runs.rss < 250,
    },
  };
  const line = (m: EndpointResult) => log(`  ${m.name.padEnd(30)} ${String(m.requests).padStart(7)} req  ${String(m.reqPerSec).padStart(8)} req/s  p50 ${m.p50Ms} ms  p99 ${m.p99Ms} ms`);
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  log(`Tasks benchmark: a board of ${count} tasks, ${WRITERS} writers and ${LISTERS} listers against a rollcall serve process, ${seconds} s (baseline ${baselineSeconds} s), SQLite in ${runs.dir}`);
  log('  closed loop (throughput):');
  [baseline, ...closed.operations, closed.writes, closed.lists].forEach(line);
  log(`  ratio tasks req/s / baseline req/s: ${result.closedLoop.ratio}`);
  log(`  ${cpuText(runs.baseline.serverCpu)} for /v1/me/, ${runs.closed.serverCpu?.processUs} µs for the tasks mix closed loop, ${runs.paced.serverCpu?.processUs} µs paced`);
  log(`  open loop (latency), each client every ${intervalMs} ms, ${result.paced.offeredReqPerSec} req/s offered:`);
  [...paced.operations, paced.writes, paced.lists].forEach(line);
  log(`  keys: ${runs.keys.tasks} tasks on the board, ${runs.keys.duplicates} duplicate and ${runs.keys.gaps} missing numbers; server RSS ${runs.rss} MB; non-2xx or errors: ${result.non2xx}`);
  log(`  targets (open loop): ${Object.entries(result.targets).map(([name, ok]) => `${name} ${verdict(ok)}`).join(', ')}`);
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await benchTasks({ print: true });
}
