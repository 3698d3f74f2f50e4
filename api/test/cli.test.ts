import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { API_DIR, CLI, REPO_DIR, admin, cleanEnv, exitOf, outputOf, tempDir, waitFor } from './processes.ts';

describe('the rollcall command', () => {
  const children: ChildProcessWithoutNullStreams[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) {
      if (child.exitCode !== null) continue;
      // `npm start` runs detached, in a group of its own: a test that failed before stopping it leaves the server
      // npm started (its grandchild) running unless the whole group ends.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }
  });

  it('`npm start` on an empty data dir prints an admin key that works, and SIGTERM stops it cleanly', async () => {
    const dataDir = tempDir();
    const child = spawn('npm', ['start', '--silent'], { cwd: REPO_DIR, env: cleanEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }), detached: true });
    children.push(child);
    const [, url] = await waitFor(child, /ready at (http:\/\/[\d.:]+)/);
    const [key] = await waitFor(child, /rk_[0-9A-Za-z]{40}/);
    // Where its data is, so an operator can point `rollcall admin` at the same database.
    expect(outputOf(child).text).toContain(`  data directory  ${dataDir}\n  database        sqlite:${dataDir}/rollcall.db\n`);
    const me = await fetch(`${url}/v1/me/`, { headers: { 'x-api-key': key } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: 'admin@localhost', role: 'admin', organization_name: 'My organization' });
    const org = await (await fetch(`${url}/v1/organization/`, { headers: { 'x-api-key': key } })).json();
    expect(org).toMatchObject({ plan: 'enterprise', plan_beta_enabled: true });
    // The root's npm start builds the web app first: /app/ is served with nothing else to set.
    const app = await fetch(`${url}/app/`);
    expect(app.status).toBe(200);
    expect(await app.text()).toContain('<div id="app">');
    // npm itself dies of the signal; the server under it must shut down gracefully.
    process.kill(-child.pid!, 'SIGTERM');
    await waitFor(child, /"signal":"SIGTERM","msg":"shutting down"[\s\S]*"msg":"stopped"/, 20_000, true);
    await exitOf(child);
    expect(fs.existsSync(path.join(dataDir, 'rollcall.db'))).toBe(true);
  });

  it('honours BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_API_KEY, never prints a key it did not generate, nor on later starts', async () => {
    const dataDir = tempDir();
    const key = `rk_${'Bootstrap0'.repeat(4)}`;
    const env = cleanEnv({ DATA_DIR: dataDir, BOOTSTRAP_ADMIN_EMAIL: 'ops@example.com', BOOTSTRAP_API_KEY: key });
    const first = spawn(process.execPath, [CLI, 'serve'], { env });
    children.push(first);
    const [, url] = await waitFor(first, /ready at (http:\/\/[\d.:]+)/);
    const me = (await (await fetch(`${url}/v1/me/`, { headers: { 'x-api-key': key } })).json()) as { email: string };
    expect(me.email).toBe('ops@example.com');
    // The operator supplied the key: printing it would only put it in container logs.
    await waitFor(first, /Its API key is the one BOOTSTRAP_API_KEY sets\./);
    expect(outputOf(first).text).not.toContain(key);
    expect(outputOf(first).text).not.toMatch(/rk_[0-9A-Za-z]{40}/);
    first.kill('SIGTERM');
    expect(await exitOf(first)).toBe(0);

    const second = spawn(process.execPath, [CLI, 'serve'], { env: { ...env, LOG_LEVEL: 'info' } });
    children.push(second);
    await waitFor(second, /ready at/);
    await waitFor(second, /"msg":"listening"/);
    expect(outputOf(second).text).not.toContain(key);
    expect(outputOf(second).text).not.toContain('First start');
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
    // No database there yet: the commands say so instead of creating an empty one.
    const none = admin(dataDir, 'user', 'deactivate', 'admin@localhost');
    expect(none.status).toBe(2);
    expect(none.stderr).toContain(`rollcall: no database at ${dataDir}/rollcall.db: start the server once (npm start) or run \`rollcall migrate\``);
    expect(fs.existsSync(path.join(dataDir, 'rollcall.db'))).toBe(false);
    const migrated = spawnSync(process.execPath, [CLI, 'migrate'], { env: cleanEnv({ DATA_DIR: dataDir }), encoding: 'utf8' });
    expect(migrated.status).toBe(0);
    expect(migrated.stdout).toMatch(new RegExp(`^database\\s+sqlite:${dataDir}/rollcall.db$`, 'm'));
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
    const backupDir = path.join(dataDir, 'backup');
    expect(admin(dataDir, 'backup', backupDir, '--json').json()).toMatchObject({ backup: backupDir, database: 'rollcall.db' });
    expect(fs.readdirSync(backupDir).sort()).toEqual(['encryption.key', 'manifest.json', 'rollcall.db']);

    const human = admin(dataDir, 'org', 'plan', 'initech', 'pro');
    expect(human.stdout).toMatch(/^plan\s+pro$/m);
    const bad = admin(dataDir, 'org', 'plan', 'initech', 'platinum');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('rollcall: plan must be one of free, basic, pro, enterprise\n');
    const missing = admin(dataDir, 'user', 'deactivate', 'nobody@x.test');
    expect(missing.stderr).toBe(`rollcall: no user "nobody@x.test" in sqlite:${dataDir}/rollcall.db\n`);
    expect(admin(dataDir, 'frobnicate').status).toBe(2);
  }, 120_000);

  it('finds one database from every entry point: relative paths start at the repository root', async () => {
    const config = pathToFileURL(path.join(API_DIR, 'src/lib/config.ts')).href;
    for (const cwd of [REPO_DIR, API_DIR]) {
      const printed = spawnSync(process.execPath, ['--input-type=module', '-e', `import { loadConfig } from '${config}'; process.stdout.write(loadConfig({}).dataDir)`], { cwd, encoding: 'utf8' });
      expect(printed.stdout, `DATA_DIR unset, from ${cwd}`).toBe(path.join(REPO_DIR, 'data'));
    }
    // `npm start` runs in api/ (the root's npm start too); `npx rollcall` wherever it is typed.
    const relative = path.join('test-output', `data-dir-${process.pid}-${Date.now()}`);
    const absolute = path.join(REPO_DIR, relative);
    try {
      const child = spawn('npm', ['start', '--silent'], { cwd: API_DIR, env: cleanEnv({ DATA_DIR: relative }), detached: true });
      children.push(child);
      const [, url] = await waitFor(child, /ready at (http:\/\/[\d.:]+)/);
      await waitFor(child, new RegExp(`data directory  ${absolute}\n  database        sqlite:${absolute}/rollcall.db\n`));
      // The README's key recovery, word for word, from the root; and the same command from api/.
      const readme = fs.readFileSync(path.join(REPO_DIR, 'README.md'), 'utf8');
      const recovery = /^(npx rollcall admin key create --user admin@localhost)\b.*$/m.exec(readme)?.[1];
      expect(recovery, 'README names the key recovery command').toBeDefined();
      for (const cwd of [REPO_DIR, API_DIR]) {
        const created = spawnSync('sh', ['-c', `${recovery} --json`], { cwd, env: cleanEnv({ DATA_DIR: relative }), encoding: 'utf8', timeout: 30_000 });
        expect(created.status, created.stderr).toBe(0);
        const me = await fetch(`${url}/v1/me/`, { headers: { 'x-api-key': JSON.parse(created.stdout).key } });
        expect(me.status).toBe(200);
      }
      process.kill(-child.pid!, 'SIGTERM');
      await exitOf(child);
    } finally {
      fs.rmSync(absolute, { recursive: true, force: true });
    }
  }, 60_000);
});
