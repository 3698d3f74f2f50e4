import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const API_DIR = path.resolve(import.meta.dirname, '..');
const REPO_DIR = path.resolve(API_DIR, '..');
const CLI = path.join(API_DIR, 'src/cli.ts');

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-cli-'));
}

/** The test runner's environment without what would change the server's behaviour, plus `extra`. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { NODE_ENV: _mode, BOOTSTRAP_API_KEY: _key, BOOTSTRAP_ADMIN_EMAIL: _email, ...inherited } = process.env;
  return { ...inherited, LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1', ...extra };
}

const outputs = new WeakMap<ChildProcessWithoutNullStreams, { text: string }>();

/** Everything a child has printed so far (stdout and stderr), accumulated from its start. */
function outputOf(child: ChildProcessWithoutNullStreams): { text: string } {
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
async function waitFor(child: ChildProcessWithoutNullStreams, pattern: RegExp, timeoutMs = 20_000, evenAfterExit = false): Promise<RegExpMatchArray> {
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
const exitOf = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

function admin(dataDir: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, 'admin', ...args], { env: cleanEnv({ DATA_DIR: dataDir }), encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, json: () => JSON.parse(result.stdout) };
}

describe('the rollcall command', () => {
  const children: ChildProcessWithoutNullStreams[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('`npm start` on an empty data dir prints an admin key that works, and SIGTERM stops it cleanly', async () => {
    const dataDir = tempDir();
    const child = spawn('npm', ['start', '--silent'], { cwd: REPO_DIR, env: cleanEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }), detached: true });
    children.push(child);
    const [, url] = await waitFor(child, /ready at (http:\/\/[\d.:]+)/);
    const [key] = await waitFor(child, /rk_[0-9A-Za-z]{40}/);
    const me = await fetch(`${url}/v1/me/`, { headers: { 'x-api-key': key } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: 'admin@localhost', role: 'admin', organization_name: 'My organization' });
    const org = await (await fetch(`${url}/v1/organization/`, { headers: { 'x-api-key': key } })).json();
    expect(org).toMatchObject({ plan: 'enterprise', plan_beta_enabled: true });
    // npm itself dies of the signal; the server under it must shut down gracefully.
    process.kill(-child.pid!, 'SIGTERM');
    await waitFor(child, /"signal":"SIGTERM","msg":"shutting down"[\s\S]*"msg":"stopped"/, 20_000, true);
    await exitOf(child);
    expect(fs.existsSync(path.join(dataDir, 'rollcall.db'))).toBe(true);
  });

  it('honours BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_API_KEY, and prints no key on later starts', async () => {
    const dataDir = tempDir();
    const key = `rk_${'Bootstrap0'.repeat(4)}`;
    const env = cleanEnv({ DATA_DIR: dataDir, BOOTSTRAP_ADMIN_EMAIL: 'ops@example.com', BOOTSTRAP_API_KEY: key });
    const first = spawn(process.execPath, [CLI, 'serve'], { env });
    children.push(first);
    const [, url] = await waitFor(first, /ready at (http:\/\/[\d.:]+)/);
    const me = (await (await fetch(`${url}/v1/me/`, { headers: { 'x-api-key': key } })).json()) as { email: string };
    expect(me.email).toBe('ops@example.com');
    first.kill('SIGTERM');
    expect(await exitOf(first)).toBe(0);

    const second = spawn(process.execPath, [CLI, 'serve'], { env: { ...env, LOG_LEVEL: 'info' } });
    children.push(second);
    await waitFor(second, /"msg":"listening"/);
    expect(outputOf(second).text).not.toContain(key);
    expect(outputOf(second).text).not.toContain('ready at');
    second.kill('SIGTERM');
    expect(await exitOf(second)).toBe(0);
  });

  it('stops at start with a message naming a bad variable', () => {
    for (const [variable, value] of [['PORT', 'eighty'], ['BOOTSTRAP_API_KEY', 'rk_short'], ['REQUIRE_HTTPS', 'maybe'], ['PUBLIC_URL', 'not a url']]) {
      const result = spawnSync(process.execPath, [CLI, 'serve'], { env: cleanEnv({ DATA_DIR: tempDir(), [variable]: value }), encoding: 'utf8', timeout: 10_000 });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`rollcall: configuration error: ${variable}:`);
    }
  });

  it('finishes an in-flight request on SIGTERM before exiting', async () => {
    const dataDir = tempDir();
    const key = `rk_${'InFlight00'.repeat(4)}`;
    const child = spawn(process.execPath, [CLI, 'serve'], { env: cleanEnv({ DATA_DIR: dataDir, BOOTSTRAP_API_KEY: key }) });
    children.push(child);
    const [, url] = await waitFor(child, /ready at (http:\/\/[\d.:]+)/);
    const body = JSON.stringify({ name: 'sent slowly' });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${url}/v1/api-keys/`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 5));
      setTimeout(() => {
        child.kill('SIGTERM'); // the request is in flight: its body is half sent
        setTimeout(() => req.end(body.slice(5)), 300);
      }, 200);
    });
    const answer = await response;
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body).name).toBe('sent slowly');
    expect(await exitOf(child)).toBe(0);
    // New connections are refused once it has stopped.
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('runs the operator commands on the configured database, with --json', () => {
    const dataDir = tempDir();
    const org = admin(dataDir, 'org', 'create', '--name', 'Initech', '--plan', 'pro', '--beta', '--json');
    expect(org.status).toBe(0);
    expect(org.json()).toMatchObject({ name: 'Initech', slug: 'initech', plan: 'pro', plan_beta_enabled: true, exchange_enabled: false });
    expect(admin(dataDir, 'org', 'plan', 'initech', 'enterprise', '--json').json()).toMatchObject({ plan: 'enterprise' });
    expect(admin(dataDir, 'org', 'beta', 'Initech', 'off', '--json').json()).toMatchObject({ plan_beta_enabled: false });
    expect(admin(dataDir, 'org', 'exchange', org.json().uuid, 'on', '--json').json()).toMatchObject({ exchange_enabled: true });
    expect(admin(dataDir, 'read-only', 'on', '--json').json()).toEqual({ read_only: true });
    const user = admin(dataDir, 'user', 'create', '--org', 'initech', '--email', 'Peter@Initech.test', '--role', 'manager', '--json');
    expect(user.json()).toMatchObject({ email: 'peter@initech.test', role: 'manager', is_active: true });
    const key = admin(dataDir, 'key', 'create', '--user', 'peter@initech.test', '--kind', 'agent', '--json');
    expect(key.json()).toMatchObject({ kind: 'agent', owner_uuid: user.json().uuid });
    expect(key.json().key).toMatch(/^rk_[0-9A-Za-z]{40}$/);
    expect(admin(dataDir, 'user', 'deactivate', 'peter@initech.test', '--json').json()).toMatchObject({ is_active: false });
    const backupFile = path.join(dataDir, 'backup.db');
    expect(admin(dataDir, 'backup', backupFile, '--json').json()).toEqual({ backup: backupFile });
    expect(fs.statSync(backupFile).size).toBeGreaterThan(10_000);

    const human = admin(dataDir, 'org', 'plan', 'initech', 'pro');
    expect(human.stdout).toMatch(/^plan\s+pro$/m);
    const bad = admin(dataDir, 'org', 'plan', 'initech', 'platinum');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('rollcall: plan must be one of free, basic, pro, enterprise\n');
    const missing = admin(dataDir, 'user', 'deactivate', 'nobody@x.test');
    expect(missing.stderr).toBe('rollcall: no user "nobody@x.test"\n');
    expect(admin(dataDir, 'frobnicate').status).toBe(2);
  }, 120_000);
});
