import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, load, perRequest, rssMb, startProcess, startServe, stop, withCpu } from './lib.ts';
import type { CpuPerRequest, CpuSpent, LoadResult } from './lib.ts';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface MeBenchResult {
  bare: LoadResult;
  /** Koa alone answering the same JSON: the most the full stack could reach here. */
  koa: LoadResult;
  full: LoadResult;
  /** Each server's CPU per request over its bursts (from /proc): what the machine's other load barely moves. */
  cpu: { bare: CpuPerRequest; koa: CpuPerRequest; full: CpuPerRequest };
  ratio: number;
  koaRatio: number;
  /** RSS of a fresh server after its first 20,000 requests (the measure), and after the whole run. */
  rssAfter20kMb: number;
  rssAfterMb: number;
  /** With BENCH_ME_COMPARE (another checkout's api/ directory): that build's full stack, in the same bursts. */
  compared?: { dir: string; load: LoadResult; cpu: CpuPerRequest };
}

type Server = Awaited<ReturnType<typeof startProcess>>;

/**
 * GET /v1/me/ with an API key through the full stack (a real `rollcall serve` started as `npm start` starts it:
 * auth, rate-limit counter write, logging, metrics) against a bare node:http server answering the same JSON,
 * same machine, same run. A third server, Koa alone answering the same JSON, shows the framework's own share.
 * The three are measured in alternating bursts of about 2 s (BENCH_SECONDS each in all), and for each the
 * server's CPU per request over its bursts. BENCH_ME_COMPARE=<another checkout's api/> adds that build's full
 * stack to the same bursts (old against new code, measured side by side).
 */
export async function benchMe(options: { seconds?: number; connections?: number } = {}): Promise<MeBenchResult> {
  const seconds = options.seconds ?? Number(process.env.BENCH_SECONDS ?? 10);
  const connections = options.connections ?? 32;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-'));
  const key = `rk_${'BenchMark0'.repeat(4)}`;
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    REQUIRE_HTTPS: 'false',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    BOOTSTRAP_API_KEY: key,
    // The hourly budget would stop a benchmark after 25,000 reads; the counter is still written on every request.
    RATE_LIMIT_READS: '100000000',
  };
  const server = await startServe(env, /ready at (http:\/\/[\d.:]+)/);
  const url = server.match[1];
  const comparedDir = process.env.BENCH_ME_COMPARE;
  const comparedData = comparedDir ? fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-compared-')) : null;
  let compared: Server | null = null;
  let rssAfter20kMb = 0;
  try {
    const headers = { 'x-api-key': key };
    const me = await fetch(`${url}/v1/me/`, { headers });
    const body = await me.text();
    if (me.status !== 200) throw new Error(`GET /v1/me/ answered ${me.status}: ${body}`);

    const baselineEnv = { ...process.env, BARE_BODY: body };
    const baselines: Server[] = [];
    const servers: { url: string; pid: number; headers: Record<string, string>; bursts: LoadResult[]; cpu: CpuSpent }[] = [];
    const spent = (): CpuSpent => ({ process: 0, mainThread: 0 });
    try {
      for (const script of ['bench/bare-server.ts', 'bench/koa-server.ts']) {
        const baseline = await startProcess([path.join(API_DIR, script)], baselineEnv, /listening (\d+)/);
        baselines.push(baseline);
        servers.push({ url: `http://127.0.0.1:${baseline.match[1]}/`, pid: baseline.child.pid!, headers: {}, bursts: [], cpu: spent() });
      }
      servers.push({ url: `${url}/v1/me/`, pid: server.child.pid!, headers, bursts: [], cpu: spent() });
      if (comparedDir && comparedData) {
        compared = await startServe({ ...env, DATA_DIR: comparedData }, /ready at (http:\/\/[\d.:]+)/, path.resolve(comparedDir));
        servers.push({ url: `${compared.match[1]}/v1/me/`, pid: compared.child.pid!, headers, bursts: [], cpu: spent() });
        await load(`${compared.match[1]}/v1/me/`, { connections, amount: 20_000, headers });
      }
      await load(`${url}/v1/me/`, { connections, amount: 20_000, headers });
      rssAfter20kMb = rssMb(server.child.pid!);
      // Warm-up (JIT, caches), then the servers in alternating bursts: this machine's speed drifts from minute
      // to minute, and a baseline measured before the full stack would carry that drift into the ratio.
      for (const target of servers) await load(target.url, { connections, seconds: 2, headers: target.headers });
      const rounds = Math.max(1, Math.round(seconds / 2));
      for (let round = 0; round < rounds; round++) {
        for (const target of round % 2 === 0 ? servers : [...servers].reverse()) {
          const { result, cpu } = await withCpu(target.pid, () => load(target.url, { connections, seconds: seconds / rounds, headers: target.headers }));
          target.bursts.push(result);
          target.cpu = { process: target.cpu.process + cpu.process, mainThread: target.cpu.mainThread + cpu.mainThread };
        }
      }
    } finally {
      for (const baseline of baselines) await stop(baseline.child);
    }
    const loads = servers.map((target) => combine(target.bursts));
    const cpus = servers.map((target, i) => perRequest(target.cpu, loads[i].requests));
    const [bare, koa, full] = loads;
    const rssAfterMb = rssMb(server.child.pid!);
    return {
      bare, koa, full,
      cpu: { bare: cpus[0], koa: cpus[1], full: cpus[2] },
      ratio: full.rps / bare.rps, koaRatio: koa.rps / bare.rps, rssAfter20kMb, rssAfterMb,
      ...(comparedDir && loads[3] ? { compared: { dir: comparedDir, load: loads[3], cpu: cpus[3] } } : {}),
    };
  } finally {
    await stop(server.child);
    if (compared) await stop(compared.child);
    for (const dir of [dataDir, comparedData]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Bursts added up: requests over time; the median burst's p50 and the worst burst's p99. */
function combine(bursts: LoadResult[]): LoadResult {
  const sum = (pick: (r: LoadResult) => number) => bursts.reduce((total, r) => total + pick(r), 0);
  const p50s = bursts.map((r) => r.p50).sort((a, b) => a - b);
  return {
    requests: sum((r) => r.requests),
    rps: sum((r) => r.requests) / sum((r) => r.seconds),
    p50: p50s[p50s.length >> 1],
    p99: Math.max(...bursts.map((r) => r.p99)),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    seconds: sum((r) => r.seconds),
  };
}

export function printMe(result: MeBenchResult): void {
  const row = (name: string, r: LoadResult, cpu: CpuPerRequest) =>
    `${name.padEnd(28)} ${fmt(r.rps, 0).padStart(8)} req/s   CPU ${String(cpu.processUs).padStart(4)} µs/req (main thread ${String(cpu.mainThreadUs).padStart(4)})   p50 ${fmt(r.p50).padStart(5)} ms   p99 ${fmt(r.p99).padStart(5)} ms   ${r.requests} requests, ${r.non2xx} non-2xx, ${r.errors} errors`;
  const { cpu } = result;
  const cpuRatio = cpu.full.processUs / Math.max(1, cpu.koa.processUs);
  console.log('\nGET /v1/me/ (32 connections; the three servers measured in alternating bursts)');
  console.log(row('bare node:http baseline', result.bare, cpu.bare));
  console.log(row('Koa alone (framework floor)', result.koa, cpu.koa));
  console.log(row('rollcall full stack', result.full, cpu.full));
  console.log(`ratio full/bare: ${fmt(result.ratio, 2)} (target >= 0.5)   p99: ${fmt(result.full.p99)} ms (target < 20)`);
  console.log(`ratio Koa alone/bare: ${fmt(result.koaRatio, 2)} (the most any Koa app reaches here); full/Koa alone: ${fmt(result.full.rps / result.koa.rps, 2)} in req/s`);
  console.log(
    `CPU per request, full/Koa alone: ${fmt(cpuRatio, 2)}× (main thread ${fmt(cpu.full.mainThreadUs / Math.max(1, cpu.koa.mainThreadUs), 2)}×) (target <= 1.4)${cpuRatio <= 1.4 ? '' : '  MISSED'}`,
  );
  if (result.compared) {
    const { compared } = result;
    console.log(row(`compared build (${path.basename(path.dirname(path.resolve(compared.dir)))})`, compared.load, compared.cpu));
    console.log(
      `CPU per request, this build/compared build: ${fmt(cpu.full.processUs / Math.max(1, compared.cpu.processUs), 2)}× (main thread ${fmt(cpu.full.mainThreadUs / Math.max(1, compared.cpu.mainThreadUs), 2)}×); req/s ${fmt(result.full.rps / compared.load.rps, 2)}×; compared build/Koa alone: ${fmt(compared.cpu.processUs / Math.max(1, cpu.koa.processUs), 2)}×`,
    );
  }
  console.log(`RSS after the first 20,000 requests: ${result.rssAfter20kMb} MB (target < 150); after the whole run: ${result.rssAfterMb} MB`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printMe(await benchMe());
}
