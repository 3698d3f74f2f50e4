/**
 * Scale-out: GET /v1/me/ and agent reports against one `rollcall serve` process on PostgreSQL, then against
 * three on the same database (each its own load generator share, as a round-robin balancer would spread it),
 * same run. Prints the three processes' throughput as a ratio of the one's. Needs TEST_DATABASE_URL (a fresh
 * database is created and dropped); skipped without it. On a machine with fewer cores than processes plus the
 * load generator, the ratio measures contention more than scaling: read it next to the core count printed.
 * `node api/bench/scale-out.ts`, or `benchScaleOut()` from the runner.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RATE_LIMIT_SCOPES } from '../src/lib/config.ts';
import { testDatabase } from '../test/database.ts';
import { fmt, load, startServe, stop } from './lib.ts';
import type { LoadResult } from './lib.ts';

export interface ScaleOutResult {
  one: { me: LoadResult; reports: LoadResult };
  three: { me: LoadResult; reports: LoadResult };
  meRatio: number;
  reportsRatio: number;
}

const KEY = `rk_${'ScaleOut00'.repeat(4)}`;

/** Sums the load results of processes measured at the same time. */
function combine(results: LoadResult[]): LoadResult {
  return {
    requests: results.reduce((n, r) => n + r.requests, 0),
    rps: results.reduce((n, r) => n + r.rps, 0),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
    errors: results.reduce((n, r) => n + r.errors, 0),
    seconds: Math.max(...results.map((r) => r.seconds)),
  };
}

export async function benchScaleOut(options: { seconds?: number; connections?: number; print?: boolean } = {}): Promise<ScaleOutResult | null> {
  if (!process.env.TEST_DATABASE_URL) {
    if (options.print) console.log('scale-out: skipped (set TEST_DATABASE_URL to a PostgreSQL server)');
    return null;
  }
  const seconds = options.seconds ?? Number(process.env.BENCH_SECONDS ?? 10);
  const connections = options.connections ?? 30;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-scale-'));
  const database = await testDatabase(dir, { engine: 'postgres' });
  // Processes sharing a database share its encryption key.
  const sharedKey = randomBytes(32).toString('hex');
  const env = (i: number): NodeJS.ProcessEnv => ({
    ...process.env,
    NODE_ENV: 'production',
    REQUIRE_HTTPS: 'false',
    DATA_DIR: path.join(dir, `p${i}`),
    DATABASE_URL: database.url,
    ENCRYPTION_KEY: sharedKey,
    PORT: '0',
    HOST: '127.0.0.1',
    BOOTSTRAP_API_KEY: KEY,
    // Benchmarks measure the work, not the throttle: the budgets are still leased and counted on every request.
    ...Object.fromEntries(RATE_LIMIT_SCOPES.map((scope) => [`RATE_LIMIT_${scope.toUpperCase()}`, '100000000'])),
  });
  const servers: Awaited<ReturnType<typeof startServe>>[] = [];
  const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
  const report = JSON.stringify({ agent_name: 'scale-out', content: 'Built and tested', structured: { completed: ['Build passed'], in_progress: [], blockers: [] } });
  const measure = async (urls: string[]) => {
    const share = Math.max(1, Math.round(connections / urls.length));
    const me = combine(await Promise.all(urls.map((url) => load(`${url}/v1/me/`, { connections: share, seconds, headers }))));
    const reports = combine(
      await Promise.all(urls.map((url) => load(`${url}/v1/agent-reports/`, { connections: share, seconds, headers, method: 'POST', body: report }))),
    );
    return { me, reports };
  };
  try {
    servers.push(await startServe(env(0), /"url":"(http:\/\/[\d.:]+)"/));
    const first = await fetch(`${servers[0].match[1]}/v1/me/`, { headers });
    if (first.status !== 200) throw new Error(`GET /v1/me/ answered ${first.status}: ${await first.text()}`);
    const one = await measure([servers[0].match[1]]);
    for (const i of [1, 2]) servers.push(await startServe(env(i), /"url":"(http:\/\/[\d.:]+)"/));
    const three = await measure(servers.map((server) => server.match[1]));
    const result: ScaleOutResult = { one, three, meRatio: three.me.rps / one.me.rps, reportsRatio: three.reports.rps / one.reports.rps };
    if (options.print) {
      const line = (name: string, r: LoadResult) =>
        `  ${name.padEnd(28)} ${fmt(r.rps, 0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}`;
      console.log(`scale-out on PostgreSQL, ${os.cpus().length} cores, ${connections} connections, ${seconds} s per phase`);
      console.log(line('GET /v1/me/, 1 process', one.me));
      console.log(line('GET /v1/me/, 3 processes', three.me));
      console.log(line('agent reports, 1 process', one.reports));
      console.log(line('agent reports, 3 processes', three.reports));
      console.log(`  three processes / one: reads ${fmt(result.meRatio, 2)}x, reports ${fmt(result.reportsRatio, 2)}x`);
    }
    return result;
  } finally {
    for (const server of servers) await stop(server.child);
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await benchScaleOut({ print: true });
}
