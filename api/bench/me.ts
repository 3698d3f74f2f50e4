import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, load, rssMb, startProcess, startServe, stop } from './lib.ts';
import type { LoadResult } from './lib.ts';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface MeBenchResult {
  bare: LoadResult;
  full: LoadResult;
  ratio: number;
  /** RSS of a fresh server after its first 20,000 requests (the measure), and after the whole run. */
  rssAfter20kMb: number;
  rssAfterMb: number;
}

/**
 * GET /v1/me/ with an API key through the full stack (a real `rollcall serve` started as `npm start` starts it:
 * auth, rate-limit counter write, logging, metrics) against a bare node:http server answering the same JSON,
 * same machine, same run.
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
  try {
    const headers = { 'x-api-key': key };
    const me = await fetch(`${url}/v1/me/`, { headers });
    const body = await me.text();
    if (me.status !== 200) throw new Error(`GET /v1/me/ answered ${me.status}: ${body}`);

    const bareProcess = await startProcess([path.join(API_DIR, 'bench/bare-server.ts')], { ...process.env, BARE_BODY: body }, /listening (\d+)/);
    let bare: LoadResult;
    try {
      await load(`http://127.0.0.1:${bareProcess.match[1]}/`, { connections, seconds: 2 }); // warm-up
      bare = await load(`http://127.0.0.1:${bareProcess.match[1]}/`, { connections, seconds });
    } finally {
      await stop(bareProcess.child);
    }
    await load(`${url}/v1/me/`, { connections, amount: 20_000, headers });
    const rssAfter20kMb = rssMb(server.child.pid!);
    await load(`${url}/v1/me/`, { connections, seconds: 2, headers }); // warm-up (JIT, caches)
    const full = await load(`${url}/v1/me/`, { connections, seconds, headers });
    const rssAfterMb = rssMb(server.child.pid!);
    return { bare, full, ratio: full.rps / bare.rps, rssAfter20kMb, rssAfterMb };
  } finally {
    await stop(server.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printMe(result: MeBenchResult): void {
  const row = (name: string, r: LoadResult) =>
    `${name.padEnd(28)} ${fmt(r.rps, 0).padStart(8)} req/s   p50 ${fmt(r.p50).padStart(5)} ms   p99 ${fmt(r.p99).padStart(5)} ms   ${r.requests} requests, ${r.non2xx} non-2xx, ${r.errors} errors`;
  console.log('\nGET /v1/me/ (32 connections)');
  console.log(row('bare node:http baseline', result.bare));
  console.log(row('rollcall full stack', result.full));
  console.log(`ratio full/bare: ${fmt(result.ratio, 2)} (target >= 0.5)   p99: ${fmt(result.full.p99)} ms (target < 20)`);
  console.log(`RSS after the first 20,000 requests: ${result.rssAfter20kMb} MB (target < 150); after the whole run: ${result.rssAfterMb} MB`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printMe(await benchMe());
}
