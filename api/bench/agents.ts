/**
 * Agents benchmark: 50 agents, each with its own key, post reports and health checks concurrently for
 * BENCH_AGENT_SECONDS (default 30 s); prints req/s and p99 for both endpoints and the ratio of their combined
 * throughput to the GET /v1/me/ baseline measured in the same run with the same 50 clients
 * (BENCH_BASELINE_SECONDS, default 10 s).
 *
 * Two report kinds, each in its own phase: plain reports (the issue's scenario, which the targets are judged on),
 * then co-authored ones, where every report names a person whose stand-up answer for the day it is appended to.
 * The second is the heaviest path on purpose: each agent co-authors with the same person all day, so that
 * person's answer grows with every report (hundreds of lines within the phase) and each merge rereads and
 * rewrites it. Its numbers fall as the phase goes on; they are printed beside the plain ones, not hidden.
 *
 * The server is a real `rollcall serve` process on a seeded temporary DATA_DIR; the load runs in another process
 * (http-load.ts), closed-loop: each of the 50 clients sends its next request when the previous answer arrived.
 * `node api/bench/agents.ts`, or `benchAgents()` from the runner.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuText, runLoadProcess as runLoad, round1, summarize, withSeededServe } from './lib.ts';
import type { EndpointResult } from './lib.ts';
import type { LoadClient } from './http-load.ts';
import { createDb } from '../src/db/connection.ts';
import { migrateLatest } from '../src/db/migrate.ts';
import { createOrganization } from '../src/features/organization/service.ts';
import { createUser } from '../src/features/users/repository.ts';
import { issueKey } from '../src/features/api-keys/service.ts';
import { lookupCredential } from '../src/auth/credentials.ts';
import { sha256Hex } from '../src/lib/secrets.ts';
import { createCheckin } from '../src/features/checkins/service.ts';

export type { EndpointResult };

export interface AgentBenchResult {
  agents: number;
  seconds: number;
  baseline: EndpointResult;
  /** Closed loop (throughput): 50 clients, each sending the next request when the last answered; plain reports. */
  report: EndpointResult;
  health: EndpointResult;
  /** The same with every report co-authored (merged into the co-author's growing answer for the day). */
  coAuthored: { report: EndpointResult; health: EndpointResult; ratio: number };
  /** Open loop (latency): each agent sends a request every intervalMs, alternating report and health check. */
  paced: { intervalMs: number; offeredReqPerSec: number; report: EndpointResult; health: EndpointResult };
  /** (report + health req/s) ÷ baseline req/s, closed loop, plain reports, same clients, same run. */
  ratio: number;
  non2xx: number;
  /**
   * Report p99 under 50 ms at the paced load, and with the 50 clients sending as fast as they can (at
   * saturation p99 follows from throughput: p50 is about 50 clients ÷ req/s).
   */
  targets: { reportP99Under50msPaced: boolean; reportP99Under50msClosedLoop: boolean; ratioAtLeast0_3: boolean };
}

const AGENTS = 50;
/** A migrated database with 50 agents, each with its own agent key and a co-author who takes part in an every-day stand-up. */
export async function seed(databaseUrl: string): Promise<LoadClient[]> {
  const db = createDb(databaseUrl);
  try {
    await migrateLatest(db);
    const now = new Date();
    const org = await createOrganization(db, { name: 'Bench', plan: 'enterprise' }, now);
    const admin = await createUser(db, { organizationUuid: org.uuid, email: 'admin@bench.test', firstName: 'Ada', lastName: 'Admin', role: 'admin' }, now);
    const adminKey = (await issueKey(db, { organizationUuid: org.uuid, ownerUuid: admin.uuid, kind: 'personal', name: 'bench' }, now)).secret;
    const clients: LoadClient[] = [];
    const people: string[] = [];
    for (let i = 0; i < AGENTS; i++) {
      const person = await createUser(db, { organizationUuid: org.uuid, email: `person${i}@bench.test`, firstName: `Person${i}`, lastName: 'Bench' }, now);
      people.push(person.uuid);
      const key = (await issueKey(db, { organizationUuid: org.uuid, ownerUuid: admin.uuid, kind: 'agent', name: `agent ${i}` }, now)).secret;
      clients.push({ key, agentName: `bench-agent-${i}`, coAuthor: i % 2 === 0 ? person.email : person.uuid });
    }
    const resolution = await lookupCredential(db, { kind: 'api_key', hash: sha256Hex(adminKey) }, now);
    if (!resolution.ok) throw new Error('bench admin key did not resolve');
    await db.transaction((trx) =>
      createCheckin(trx, resolution.actor, { name: 'Stand-up', schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: '09:00', timezone: 'UTC' }, participants: { user_uuids: people } }, now),
    );
    return clients;
  } finally {
    await db.destroy();
  }
}

export async function benchAgents(options: { seconds?: number; baselineSeconds?: number; print?: boolean } = {}): Promise<AgentBenchResult> {
  const seconds = options.seconds ?? Number(process.env.BENCH_AGENT_SECONDS ?? 30);
  const baselineSeconds = options.baselineSeconds ?? Number(process.env.BENCH_BASELINE_SECONDS ?? 10);
  const log = options.print === false ? () => {} : (line: string) => console.log(line);
  return withSeededServe('agents', seed, async (url, clients, dir, pid) => {
    // Warm-up (credential cache, connections, JIT), then the baseline and the measurement with the same clients.
    await runLoad({ url, seconds: 2, mode: 'agents', clients, coAuthored: false });
    const baselineRun = await runLoad({ url, seconds: baselineSeconds, mode: 'me', clients }, pid);
    const agentRun = await runLoad({ url, seconds, mode: 'agents', clients, coAuthored: false }, pid);
    const coAuthoredRun = await runLoad({ url, seconds, mode: 'agents', clients, coAuthored: true }, pid);
    const intervalMs = Number(process.env.BENCH_AGENT_INTERVAL_MS ?? 250);
    const pacedRun = await runLoad({ url, seconds, mode: 'agents', clients, coAuthored: true, intervalMs }, pid);

    const baseline = summarize('GET /v1/me/ (baseline)', baselineRun.latencies.me ?? [], baselineRun.elapsedSeconds);
    const report = summarize('POST /v1/agent-reports/', agentRun.latencies.report ?? [], agentRun.elapsedSeconds);
    const health = summarize('POST /v1/agent-health/', agentRun.latencies.health ?? [], agentRun.elapsedSeconds);
    const paced = {
      intervalMs,
      offeredReqPerSec: round1((AGENTS * 1000) / intervalMs),
      report: summarize('POST /v1/agent-reports/', pacedRun.latencies.report ?? [], pacedRun.elapsedSeconds),
      health: summarize('POST /v1/agent-health/', pacedRun.latencies.health ?? [], pacedRun.elapsedSeconds),
    };
    const ratioTo = (a: EndpointResult, b: EndpointResult) => Math.round(((a.reqPerSec + b.reqPerSec) / baseline.reqPerSec) * 100) / 100;
    const ratio = ratioTo(report, health);
    const coReport = summarize('POST /v1/agent-reports/', coAuthoredRun.latencies.report ?? [], coAuthoredRun.elapsedSeconds);
    const coHealth = summarize('POST /v1/agent-health/', coAuthoredRun.latencies.health ?? [], coAuthoredRun.elapsedSeconds);
    const coAuthored = { report: coReport, health: coHealth, ratio: ratioTo(coReport, coHealth) };
    const result: AgentBenchResult = {
      agents: AGENTS,
      seconds,
      baseline,
      report,
      health,
      coAuthored,
      paced,
      ratio,
      non2xx: [baselineRun, agentRun, coAuthoredRun, pacedRun].reduce((sum, run) => sum + run.non2xx + run.errors, 0),
      targets: { reportP99Under50msPaced: paced.report.p99Ms < 50, reportP99Under50msClosedLoop: report.p99Ms < 50, ratioAtLeast0_3: ratio >= 0.3 },
    };
    log(`Agents benchmark: ${AGENTS} agents against a rollcall serve process, ${seconds} s (baseline ${baselineSeconds} s), SQLite in ${dir}`);
    const line = (m: EndpointResult) => log(`  ${m.name.padEnd(28)} ${String(m.requests).padStart(7)} req  ${String(m.reqPerSec).padStart(8)} req/s  p50 ${m.p50Ms} ms  p99 ${m.p99Ms} ms`);
    log('  closed loop (throughput), 50 clients:');
    [baseline, report, health].forEach(line);
    log(`  ratio (reports + health) / baseline: ${ratio}`);
    log(`  ${cpuText(baselineRun.serverCpu)} for /v1/me/, ${agentRun.serverCpu?.processUs} µs for reports and health checks, ${coAuthoredRun.serverCpu?.processUs} µs co-authored, ${pacedRun.serverCpu?.processUs} µs paced`);
    log('  closed loop, every report co-authored (appended to the co-author\'s answer for the day, which keeps growing):');
    [coReport, coHealth].forEach(line);
    log(`  ratio (reports + health) / baseline: ${coAuthored.ratio}`);
    log(`  open loop (latency), co-authored reports, each agent every ${intervalMs} ms, ${paced.offeredReqPerSec} req/s offered:`);
    [paced.report, paced.health].forEach(line);
    log(`  non-2xx or errors: ${result.non2xx}`);
    const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
    log(
      `  targets: report p99 < 50 ms paced ${verdict(result.targets.reportP99Under50msPaced)}, closed loop ${verdict(result.targets.reportP99Under50msClosedLoop)}; ratio ≥ 0.3 ${verdict(result.targets.ratioAtLeast0_3)}`,
    );
    return result;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await benchAgents({ print: true });
}
