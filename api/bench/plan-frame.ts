/**
 * What each stage of the Plan's per-request frame costs, measured in this process with nothing else running
 * (issue: a Plan read cost tens of times a `/v1/me/`). Two views:
 *
 * - whole requests over a keep-alive connection, one at a time, the kinds alternating so this machine's drift
 *   falls on all alike: `/v1/me/` (the frame every route shares: credential, hourly budget, routing, request id,
 *   metrics, access log), a Plan read of one label (adds the gate, the minute ceiling and the label's board
 *   access), the same read naming an agent (adds the attribution lookup), and a label write without and with an
 *   Idempotency-Key (adds the transaction, the change log, and the key's lookup and stored answer);
 * - each stage alone, called directly in a loop: the gate's checks (beta, guest, person, scopes), the minute
 *   ceiling (a lease of the shared counter), attribution without and with an agent name, the Idempotency-Key
 *   lookup, the board access check.
 *
 * Medians in microseconds. `node api/bench/plan-frame.ts`, or `measureFrameStages()` from bench/plan.ts.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { planPerson, sequentialClient, startInProcessApp } from './in-process-app.ts';
import { median, round1 } from './lib.ts';
import { lookupCredential } from '../src/auth/credentials.ts';
import { sha256Hex } from '../src/lib/secrets.ts';
import { describePlan } from '../src/http/plan/registrar.ts';
import { admit } from '../src/http/plan/gate.ts';
import { labelRoutes } from '../src/features/plan/labels/routes.ts';
import { resolveAgentName } from '../src/features/plan/frame/attribution.ts';
import { visibleBoard } from '../src/features/plan/frame/access.ts';
import { lookupKey } from '../src/db/idempotency-keys.ts';

export interface FrameStages {
  samples: number;
  /** Whole requests, medians in µs. */
  requests: { me: number; planRead: number; planReadNamingAgent: number; writeWithoutKey: number; writeWithKey: number };
  /** Each stage alone, medians in µs. */
  stages: { gate: number; minuteCeiling: number; attributionNone: number; attributionNamed: number; idempotencyLookup: number; boardAccess: number };
}


/** The median time of `run` in µs: batches of `batch` calls, so a clock read's cost and resolution do not count. */
async function timed(run: () => unknown, samples: number, batch = 50): Promise<number> {
  for (let i = 0; i < batch * 20; i++) await run();
  const perCall: number[] = [];
  for (let s = 0; s < samples; s++) {
    const started = performance.now();
    for (let i = 0; i < batch; i++) await run();
    perCall.push(((performance.now() - started) * 1000) / batch);
  }
  return round1(median(perCall));
}

export async function measureFrameStages(samples = Number(process.env.BENCH_PLAN_COST_SAMPLES ?? 1000)): Promise<FrameStages> {
  const app = await startInProcessApp('plan-frame');
  const { organizationUuid, key } = await planPerson(app.db, 'Frame');
  const client = sequentialClient(app.url, key);
  const send = client.send;
  try {
    const now = new Date();
    const board = JSON.parse((await send('POST', '/v1/plan/boards/', { name: 'Frame', key: 'FRAME' })).text).uuid as string;
    const label = JSON.parse((await send('POST', `/v1/plan/boards/${board}/labels/`, { name: 'frame' })).text).uuid as string;

    let n = 0;
    const kinds: Record<keyof FrameStages['requests'], () => ReturnType<typeof send>> = {
      me: () => send('GET', '/v1/me/'),
      planRead: () => send('GET', `/v1/plan/labels/${label}/`),
      planReadNamingAgent: () => send('GET', `/v1/plan/labels/${label}/`, undefined, { 'x-service-agent-name': 'frame-bot' }),
      writeWithoutKey: () => send('POST', `/v1/plan/boards/${board}/labels/`, { name: `plain ${n++}` }),
      writeWithKey: () => send('POST', `/v1/plan/boards/${board}/labels/`, { name: `keyed ${n++}` }, { 'idempotency-key': `frame-key-${n}` }),
    };
    const times = Object.fromEntries(Object.keys(kinds).map((name) => [name, [] as number[]])) as Record<keyof FrameStages['requests'], number[]>;
    for (let i = 0; i < samples + 100; i++) {
      for (const [name, run] of Object.entries(kinds) as [keyof FrameStages['requests'], () => ReturnType<typeof send>][]) {
        const res = await run();
        if (res.status >= 300) throw new Error(`${name} answered ${res.status}: ${res.text}`);
        if (i >= 100) times[name].push(res.us);
      }
    }
    const requests = Object.fromEntries(Object.entries(times).map(([name, values]) => [name, Math.round(median(values))])) as FrameStages['requests'];

    const resolution = await lookupCredential(app.db, { kind: 'api_key', hash: sha256Hex(key) }, now);
    if (!resolution.ok) throw new Error('frame key did not resolve');
    const actor = resolution.actor;
    const read = describePlan(labelRoutes).find((operation) => operation.method === 'get' && operation.path === '/v1/plan/labels/:label/');
    if (!read) throw new Error('no GET /v1/plan/labels/:label/ operation');
    const rounds = Math.max(20, Math.round(samples / 10));
    const stages: FrameStages['stages'] = {
      gate: await timed(() => admit(read, actor, {}), rounds, 1000),
      minuteCeiling: await timed(() => app.deps.budgets.take(`plan-reads:frame`, 100_000_000, 60), rounds, 1000),
      attributionNone: await timed(() => resolveAgentName(app.db, actor, undefined), rounds),
      attributionNamed: await timed(() => resolveAgentName(app.db, actor, 'frame-bot'), rounds),
      idempotencyLookup: await timed(() => lookupKey(app.db, { actorId: actor.credential.uuid, key: 'absent-key', fingerprint: 'x', organizationUuid }, now), rounds),
      boardAccess: await timed(() => visibleBoard(app.db, actor, board), rounds),
    };
    return { samples, requests, stages };
  } finally {
    client.close();
    await app.close();
  }
}

export function printFrameStages(frame: FrameStages, log: (line: string) => void): void {
  const r = frame.requests;
  const s = frame.stages;
  log(`  the Plan's frame, one request at a time in process (medians of ${frame.samples}, µs):`);
  log(`    GET /v1/me/ ${r.me} | Plan read of one label ${r.planRead} (+${r.planRead - r.me} over /v1/me/) | naming an agent ${r.planReadNamingAgent} (+${r.planReadNamingAgent - r.planRead})`);
  log(`    label write without Idempotency-Key ${r.writeWithoutKey} | with one ${r.writeWithKey} (+${r.writeWithKey - r.writeWithoutKey})`);
  log(
    `    stages alone: gate (beta, guest, person, scopes) ${s.gate} | minute ceiling (leased counter) ${s.minuteCeiling} | attribution: none ${s.attributionNone}, ` +
      `named ${s.attributionNamed} | Idempotency-Key lookup ${s.idempotencyLookup} | board access ${s.boardAccess}`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  printFrameStages(await measureFrameStages(), (line) => console.log(line));
}
