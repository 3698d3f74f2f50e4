import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess, ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Real `rollcall` processes for the tests of the command itself: serve, admin, npm start, from any directory. */
export const API_DIR = path.resolve(import.meta.dirname, '..');
export const REPO_DIR = path.resolve(API_DIR, '..');
export const CLI = path.join(API_DIR, 'src/cli.ts');
/** The installed entry (`npx rollcall`): checks the Node version, turns on the compile cache, runs src/cli.ts. */
export const BIN = path.join(API_DIR, 'bin/rollcall.js');

/** A port free on 127.0.0.1 right now (for a process that must be told its port in advance). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function tempDir(prefix = 'rollcall-cli-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** The test runner's environment without what would change the server's behaviour, plus `extra`. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { NODE_ENV: _mode, BOOTSTRAP_API_KEY: _key, BOOTSTRAP_ADMIN_EMAIL: _email, DATA_DIR: _data, DATABASE_URL: _db, ENCRYPTION_KEY: _enc, ...inherited } = process.env;
  return { ...inherited, LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1', ...extra };
}

const outputs = new WeakMap<ChildProcessWithoutNullStreams, { text: string }>();

/** Everything a child has printed so far (stdout and stderr), accumulated from its start. */
export function outputOf(child: ChildProcessWithoutNullStreams): { text: string } {
  let output = outputs.get(child);
  if (!output) {
    const collected = { text: '' };
    child.stdout.on('data', (chunk: Buffer) => (collected.text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (collected.text += chunk.toString()));
    outputs.set(child, collected);
    output = collected;
  }
  return output;
}

/** Resolves once the child's accumulated output matches `pattern`. */
export async function waitFor(child: ChildProcessWithoutNullStreams, pattern: RegExp, timeoutMs = 20_000, evenAfterExit = false): Promise<RegExpMatchArray> {
  const output = outputOf(child);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = output.text.match(pattern);
    if (match) return match;
    if (!evenAfterExit && (child.exitCode !== null || child.signalCode !== null)) throw new Error(`exited with ${child.exitCode} before ${pattern}; output:\n${output.text}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; output:\n${output.text}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The exit code, or null when a signal ended the process (as npm itself ends on SIGTERM). */
export const exitOf = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

/** `rollcall serve` in a child process; resolves with its URL once it is ready. The caller stops it. */
export async function serve(env: Record<string, string>, children: ChildProcessWithoutNullStreams[]) {
  const child = spawn(process.execPath, [CLI, 'serve'], { env: cleanEnv(env) });
  children.push(child);
  const [, url] = await waitFor(child, /ready at (http:\/\/[\d.:]+)/);
  return { child, url };
}

/** Stops a server with SIGTERM and waits for its exit code. */
export async function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  const exited = exitOf(child);
  child.kill('SIGTERM');
  return exited;
}

/** `rollcall admin …` on the data directory `dataDir`, to its end. */
export function admin(dataDir: string, ...args: string[]) {
  return rollcall(['admin', ...args], { DATA_DIR: dataDir });
}

export function rollcall(args: string[], env: Record<string, string>, cwd = API_DIR) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, env: cleanEnv(env), encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, json: () => JSON.parse(result.stdout) };
}

/** Kills a process with SIGKILL (a crash: nothing runs after it) and waits until it is gone. */
export function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/**
 * Store first, then acknowledge: `items` submitted to a server in three waves, the server killed (SIGKILL) 15 ms
 * into the last. Answers the items whose submission was acknowledged (`submit` resolved true) before it died;
 * a submission whose connection died with the process is not.
 */
export async function acknowledgedBeforeKill<T>(child: ChildProcess, items: T[], submit: (item: T) => Promise<boolean>): Promise<T[]> {
  const acknowledged: T[] = [];
  const third = Math.floor(items.length / 3);
  const wave = (group: T[]) => Promise.all(group.map(async (item) => void ((await submit(item).catch(() => false)) && acknowledged.push(item))));
  await wave(items.slice(0, third));
  await wave(items.slice(third, 2 * third));
  const inFlight = wave(items.slice(2 * third));
  await new Promise((resolve) => setTimeout(resolve, 15));
  await killed(child);
  await inFlight;
  return acknowledged;
}
