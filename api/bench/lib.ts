import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { serveCommand } from '../src/serve-flags.ts';
import { loadConfig, RATE_LIMIT_SCOPES } from '../src/lib/config.ts';
import type { LoadJob, LoadOutput } from './http-load.ts';
import type { Db } from '../src/db/connection.ts';
import { createUser } from '../src/features/users/repository.ts';
import { issueKey } from '../src/features/api-keys/service.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import type { SubscriptionRow } from '../src/db/tables.ts';
import { testDatabase } from '../test/database.ts';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** How long the load ran. */
  seconds: number;
}

/** Drives `url` with autocannon from this process; the server under test runs in its own process. */
export async function load(
  url: string,
  options: { connections: number; seconds?: number; amount?: number; headers?: Record<string, string>; method?: 'GET' | 'POST'; body?: string },
): Promise<LoadResult> {
  const limit = options.amount !== undefined ? { amount: options.amount } : { duration: options.seconds ?? 10 };
  const result = await autocannon({ url, connections: options.connections, headers: options.headers, ...(options.method ? { method: options.method } : {}), ...(options.body !== undefined ? { body: options.body } : {}), ...limit });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    seconds: result.duration,
  };
}

/** Starts a Node script as a child process and resolves once its output matches `ready`. */
export async function startProcess(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray; output: () => string }> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  // Keep draining after start-up so a chatty logger never blocks on a full pipe; keep only the first lines.
  const onData = (chunk: Buffer) => {
    if (output.length < 20_000) output += chunk.toString();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const match = output.match(ready);
    if (match) return { child, match, output: () => output };
    if (child.exitCode !== null) throw new Error(`exited before ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL'); // never leave a server behind a failed start
      throw new Error(`not ready after 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts the server exactly as `npm start` does (same Node flags and entry) in its own process. Node's compile
 * cache is filled first with `rollcall precompile`, as the container image does at build: the measured server
 * starts like any restart, without type-stripping its source again (that costs about 20 MB of resident memory).
 */
export async function startServe(env: NodeJS.ProcessEnv, ready: RegExp): ReturnType<typeof startProcess> {
  const { flags, entry, args } = serveCommand();
  const precompile = spawnSync(process.execPath, [path.join(API_DIR, entry), 'precompile'], { env, encoding: 'utf8' });
  if (precompile.status !== 0) throw new Error(`rollcall precompile failed:\n${precompile.stderr}`);
  // BENCH_SERVE_NODE_OPTIONS reaches the server only (say `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it under load).
  const serverEnv = process.env.BENCH_SERVE_NODE_OPTIONS ? { ...env, NODE_OPTIONS: process.env.BENCH_SERVE_NODE_OPTIONS } : env;
  return startProcess([...flags, path.join(API_DIR, entry), ...args], serverEnv, ready);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** CPU time a process has used so far (user + system), in seconds (Linux /proc; clock ticks of 1/100 s). */
export function cpuSeconds(pid: number): number {
  // Fields after the command name (which may hold spaces, so split after its closing parenthesis): utime is the 12th, stime the 13th.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Starts counting the machine's CPU time; the function returned gives the busy share of all cores since (Linux /proc/stat). */
export function machineBusy(): () => number {
  const read = () => {
    const [, ...ticks] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const idle = ticks[3] + ticks[4];
    return { idle, total: ticks.reduce((a, b) => a + b, 0) };
  };
  const start = read();
  return () => {
    const end = read();
    return Math.round((1 - (end.idle - start.idle) / Math.max(1, end.total - start.total)) * 100) / 100;
  };
}

/** Resident set size of a process, in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);


export interface EndpointResult {
  name: string;
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

const percentile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
export const round1 = (x: number) => Math.round(x * 10) / 10;
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

export function summarize(name: string, values: number[], seconds: number): EndpointResult {
  const sorted = [...values].sort((a, b) => a - b);
  return { name, requests: sorted.length, reqPerSec: round1(sorted.length / seconds), p50Ms: round1(percentile(sorted, 0.5)), p99Ms: round1(percentile(sorted, 0.99)) };
}

/** Runs one closed- or open-loop load phase in its own process (http-load.ts) and returns its latencies. */
export function runLoadProcess(job: LoadJob): Promise<LoadOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(API_DIR, 'bench/http-load.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(output) as LoadOutput) : reject(new Error(`http-load exited ${code}`))));
    child.stdin!.end(JSON.stringify(job));
  });
}

/**
 * A `rollcall serve` process, as `npm start` runs it, on a temporary DATA_DIR that `seed` fills first (given the
 * database URL and the server's environment; `options.env` adds to it), with every hourly budget and Plan minute ceiling out of the way (benchmarks measure the work,
 * not the throttle; the counters are still kept on every request). Runs
 * `measure` against its URL (and the server's pid, for its memory), then stops the server and removes the directory.
 * With `engine: 'postgres'`, the database is a fresh one on TEST_DATABASE_URL's server (dropped at the end).
 */
export async function withSeededServe<S, R>(
  name: string,
  seed: (databaseUrl: string, env: NodeJS.ProcessEnv) => Promise<S>,
  measure: (url: string, seeded: S, dir: string, pid: number) => Promise<R>,
  options: { engine?: 'sqlite' | 'postgres'; env?: Record<string, string> } = {},
): Promise<R> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rollcall-bench-${name}-`));
  const database = options.engine === 'postgres' ? await testDatabase(dir, { engine: 'postgres' }) : null;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    REQUIRE_HTTPS: 'false',
    DATA_DIR: dir,
    ...(database ? { DATABASE_URL: database.url } : {}),
    PORT: '0',
    HOST: '127.0.0.1',
    ...Object.fromEntries(RATE_LIMIT_SCOPES.map((scope) => [`RATE_LIMIT_${scope.toUpperCase()}`, '100000000'])),
    ...Object.fromEntries(['READS', 'WRITES', 'BULK', 'DELTA'].map((kind) => [`PLAN_RATE_LIMIT_${kind}`, '100000000'])),
    ...options.env,
  };
  let server: Awaited<ReturnType<typeof startProcess>> | null = null;
  try {
    const seeded = await seed(loadConfig(env).databaseUrl, env);
    server = await startServe(env, /"url":"(http:\/\/[\d.:]+)"/);
    return await measure(server.match[1], seeded, dir, server.child.pid!);
  } finally {
    if (server) await stop(server.child);
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `count` people of the organization, each with a personal key (person0@bench.test, …): the benchmarks' clients. */
export async function seedPeople(db: Db, organizationUuid: string, count: number, now: Date, prefix = 'person'): Promise<{ uuid: string; key: string }[]> {
  const people: { uuid: string; key: string }[] = [];
  for (let i = 0; i < count; i++) {
    const person = await createUser(db, { organizationUuid, email: `${prefix}${i}@bench.test`, firstName: `Person${i}`, lastName: 'Bench' }, now);
    people.push({ uuid: person.uuid, key: (await issueKey(db, { organizationUuid, ownerUuid: person.uuid, kind: 'personal', name: 'bench' }, now)).secret });
  }
  return people;
}

/** A webhook subscription to kudos.posted at `hookUrl`, written straight to the table (the benchmarks' receiver is on loopback). */
export async function insertKudosSubscription(db: Db, params: { organizationUuid: string; hookUrl: string; name: string; secretEncrypted: string; now: Date }): Promise<SubscriptionRow> {
  const row = {
    uuid: uuidv7(),
    organization_uuid: params.organizationUuid,
    created_by_uuid: null,
    hook_url: params.hookUrl,
    name: params.name,
    subscriptions: JSON.stringify(['kudos.posted']),
    subscribed_objects: '[]',
    secret_encrypted: params.secretEncrypted,
    secret_generated: true,
    bearer_encrypted: null,
    disabled_at: null,
    disabled_reason: null,
    created_at: params.now.toISOString(),
    updated_at: params.now.toISOString(),
  } satisfies SubscriptionRow;
  await db('webhook_subscriptions').insert(row);
  return row;
}
