/**
 * Kudos benchmark: 50 people, each with their own key, give kudos to a team of 20 for BENCH_KUDOS_SECONDS
 * (default 20 s), closed loop; prints req/s and p99 beside the GET /v1/me/ baseline of the same 50 clients in
 * the same run (BENCH_BASELINE_SECONDS, default 10 s). Each kudos expands its team to 19 receivers (the giver
 * is a member), counts against the daily limit (raised out of the way), records the kudos.posted event and
 * checks for event workflows and a chat platform, as in production.
 *
 * Targets: p99 under 50 ms and a ratio to the baseline of at least 0.2. The server is a real `rollcall serve`
 * process on a seeded temporary DATA_DIR; the load runs in another process (http-load.ts).
 * `node api/bench/kudos.ts`, or `benchKudos()` from the runner.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuText, runLoadProcess, summarize, withSeededServe } from './lib.ts';
import type { CpuPerRequest, EndpointResult } from './lib.ts';
import type { LoadClient } from './http-load.ts';
import { createDb } from '../src/db/connection.ts';
import { migrateLatest } from '../src/db/migrate.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { createOrganization } from '../src/features/organization/service.ts';
import { createUser } from '../src/features/users/repository.ts';
import { issueKey } from '../src/features/api-keys/service.ts';

const GIVERS = 50;
const TEAMS = 10;
const TEAM_SIZE = 20;

export interface KudosBenchResult {
  seconds: number;
  baseline: EndpointResult;
  kudos: EndpointResult;
  ratio: number;
  /** The server's CPU per request in each run: what the machine's other load barely moves. */
  cpu: { baseline?: CpuPerRequest; kudos?: CpuPerRequest };
  non2xx: number;
  targets: { p99Under50ms: boolean; ratioAtLeast0_2: boolean };
}

/** 200 people in 10 teams of 20; the first 50 give kudos, each to a team they belong to. */
async function seed(databaseUrl: string): Promise<LoadClient[]> {
  const db = createDb(databaseUrl);
  try {
    await migrateLatest(db);
    const now = new Date();
    const org = await createOrganization(db, { name: 'Bench', plan: 'enterprise' }, now);
    const people: string[] = [];
    const keys: string[] = [];
    for (let i = 0; i < TEAMS * TEAM_SIZE; i++) {
      const person = await createUser(db, { organizationUuid: org.uuid, email: `person${i}@bench.test`, firstName: `Person${i}`, lastName: 'Bench' }, now);
      people.push(person.uuid);
      if (i < GIVERS) keys.push((await issueKey(db, { organizationUuid: org.uuid, ownerUuid: person.uuid, kind: 'personal', name: 'bench' }, now)).secret);
    }
    const teams: string[] = [];
    for (let t = 0; t < TEAMS; t++) {
      const uuid = uuidv7();
      teams.push(uuid);
      await db('teams').insert({ uuid, organization_uuid: org.uuid, name: `Team ${t}`, active: true, is_default: false, created_at: now.toISOString(), updated_at: now.toISOString() });
      // Person i is in team i % 10: every giver is a member of the team it thanks (and so left out of it).
      await db('team_members').insert(people.filter((_, i) => i % TEAMS === t).map((user_uuid) => ({ team_uuid: uuid, user_uuid, created_at: now.toISOString() })));
    }
    await db('kudos_settings').insert({ organization_uuid: org.uuid, daily_limit: 10_000, chat_announcements: true, chat_channel: null, updated_at: now.toISOString() });
    return keys.map((key, i) => ({ key, agentName: '', coAuthor: '', team: teams[i % TEAMS] }));
  } finally {
    await db.destroy();
  }
}

export async function benchKudos(options: { seconds?: number; baselineSeconds?: number; print?: boolean } = {}): Promise<KudosBenchResult> {
  const seconds = options.seconds ?? Number(process.env.BENCH_KUDOS_SECONDS ?? process.env.BENCH_SECONDS ?? 20);
  const baselineSeconds = options.baselineSeconds ?? Number(process.env.BENCH_BASELINE_SECONDS ?? 10);
  const log = options.print === false ? () => {} : (line: string) => console.log(line);
  return withSeededServe('kudos', seed, async (url, clients, dir, pid) => {
    await runLoadProcess({ url, seconds: Math.min(2, seconds), mode: 'kudos', clients });
    const baselineRun = await runLoadProcess({ url, seconds: baselineSeconds, mode: 'me', clients }, pid);
    const kudosRun = await runLoadProcess({ url, seconds, mode: 'kudos', clients }, pid);
    const baseline = summarize('GET /v1/me/ (baseline)', baselineRun.latencies.me ?? [], baselineRun.elapsedSeconds);
    const kudos = summarize('POST /v1/kudos/ (team of 20)', kudosRun.latencies.kudos ?? [], kudosRun.elapsedSeconds);
    const ratio = Math.round((kudos.reqPerSec / baseline.reqPerSec) * 100) / 100;
    const result: KudosBenchResult = {
      seconds,
      baseline,
      kudos,
      ratio,
      cpu: { baseline: baselineRun.serverCpu, kudos: kudosRun.serverCpu },
      non2xx: baselineRun.non2xx + baselineRun.errors + kudosRun.non2xx + kudosRun.errors,
      targets: { p99Under50ms: kudos.p99Ms < 50, ratioAtLeast0_2: ratio >= 0.2 },
    };
    log(`Kudos benchmark: ${GIVERS} clients giving kudos to teams of ${TEAM_SIZE}, ${seconds} s (baseline ${baselineSeconds} s), against a rollcall serve process, SQLite in ${dir}`);
    for (const [m, cpu] of [[baseline, result.cpu.baseline], [kudos, result.cpu.kudos]] as const) {
      log(`  ${m.name.padEnd(30)} ${String(m.requests).padStart(7)} req  ${String(m.reqPerSec).padStart(8)} req/s  p50 ${m.p50Ms} ms  p99 ${m.p99Ms} ms  ${cpuText(cpu)}`);
    }
    const cpuRatio = result.cpu.kudos && result.cpu.baseline ? ` (in server CPU per request: ${(result.cpu.baseline.processUs / Math.max(1, result.cpu.kudos.processUs)).toFixed(2)})` : '';
    log(`  ratio kudos / baseline: ${ratio}${cpuRatio}; non-2xx or errors: ${result.non2xx}`);
    const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
    log(`  targets: p99 < 50 ms ${verdict(result.targets.p99Under50ms)}; ratio ≥ 0.2 ${verdict(result.targets.ratioAtLeast0_2)}`);
    return result;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await benchKudos({ print: true });
}
