import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bootstrapIfEmpty } from '../src/bootstrap.ts';
import { createDb } from '../src/db/connection.ts';
import { loadConfig } from '../src/lib/config.ts';
import { systemClock } from '../src/lib/clock.ts';
import { CLI, cleanEnv, exitOf, outputOf, tempDir, waitFor } from './processes.ts';

/**
 * What `rollcall serve` does when it cannot start, or must not: each cause is one line on stderr naming the
 * variable to change, and nothing is created before the port and the database file are this process's.
 */
describe('starting the server', () => {
  const children: ChildProcessWithoutNullStreams[] = [];
  const servers: net.Server[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    for (const server of servers.splice(0)) server.close();
  });

  const run = (args: string[], env: Record<string, string>) => spawnSync(process.execPath, [CLI, ...args], { env: cleanEnv(env), encoding: 'utf8', timeout: 60_000 });
  const listening = async (onConnection: (socket: net.Socket) => void = () => {}): Promise<number> => {
    const server = net.createServer(onConnection);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as net.AddressInfo).port;
  };

  it('on a busy port stops with one line naming PORT, before creating anything; the next start prints the key', async () => {
    const dataDir = tempDir();
    const busy = await listening();
    const refused = run(['serve'], { DATA_DIR: dataDir, PORT: String(busy) });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(`rollcall: PORT: 127.0.0.1:${busy} is already in use by another process: stop it, or set PORT to a free port\n`);
    expect(fs.existsSync(path.join(dataDir, 'rollcall.db'))).toBe(false);

    const child = spawn(process.execPath, [CLI, 'serve'], { env: cleanEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }) });
    children.push(child);
    const [, url] = await waitFor(child, /ready at (http:\/\/[\d.:]+)/, 90_000);
    const [key] = await waitFor(child, /rk_[0-9A-Za-z]{40}/, 90_000);
    expect((await fetch(`${url}/v1/me/`, { headers: { 'x-api-key': key } })).status).toBe(200);
    // The first log line counts the migrations instead of listing every name.
    const migrated = JSON.parse(outputOf(child).text.split('\n').find((line) => line.includes('"msg":"database migrated"'))!);
    expect(migrated.migrations_applied).toBeGreaterThan(50);
    expect(migrated).not.toHaveProperty('migrations');
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
  }, 180_000);

  it('gives a generated admin key that no start has shown a new secret, and prints it', async () => {
    const dataDir = tempDir();
    expect(run(['migrate'], { DATA_DIR: dataDir }).status).toBe(0);
    // A start that bootstrapped and then died before its banner: the key exists, nobody has seen it.
    const config = loadConfig({ DATA_DIR: dataDir });
    const db = createDb(config.databaseUrl);
    const lost = (await bootstrapIfEmpty(db, config, systemClock))!.generatedApiKey!;
    await db.destroy();

    const env = { DATA_DIR: dataDir };
    const child = spawn(process.execPath, [CLI, 'serve'], { env: cleanEnv(env) });
    children.push(child);
    const [, url] = await waitFor(child, /ready at (http:\/\/[\d.:]+)/, 90_000);
    await waitFor(child, /The admin key of the first start was never shown \(that start did not finish\): it has a new secret now\./, 90_000);
    const [key] = await waitFor(child, /rk_[0-9A-Za-z]{40}/, 90_000);
    expect(key).not.toBe(lost);
    expect((await fetch(`${url}/v1/me/`, { headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await fetch(`${url}/v1/me/`, { headers: { 'x-api-key': lost } })).status).toBe(401);
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);

    // Shown once: the next start prints none.
    const again = spawn(process.execPath, [CLI, 'serve'], { env: cleanEnv(env) });
    children.push(again);
    await waitFor(again, /ready at/, 90_000);
    again.kill('SIGTERM');
    expect(await exitOf(again)).toBe(0);
    expect(outputOf(again).text).not.toMatch(/rk_[0-9A-Za-z]{40}|never shown|First start/);
  }, 180_000);

  it('refuses a second server on the same SQLite database with one line naming DATA_DIR', async () => {
    const dataDir = tempDir();
    const first = spawn(process.execPath, [CLI, 'serve'], { env: cleanEnv({ DATA_DIR: dataDir }) });
    children.push(first);
    await waitFor(first, /ready at/, 90_000);
    const second = run(['serve'], { DATA_DIR: dataDir });
    expect(second.status).toBe(1);
    expect(second.stderr).toBe(
      `rollcall: DATA_DIR: another rollcall server is running on ${dataDir}/rollcall.db; on SQLite one process owns the database: stop that one, or give this one its own DATA_DIR\n`,
    );
    // Operator commands still work beside the server.
    expect(run(['admin', 'read-only', 'off', '--json'], { DATA_DIR: dataDir }).status).toBe(0);
    first.kill('SIGTERM');
    expect(await exitOf(first)).toBe(0);
    // Its lock goes with it: the next server starts.
    const next = spawn(process.execPath, [CLI, 'serve'], { env: cleanEnv({ DATA_DIR: dataDir }) });
    children.push(next);
    await waitFor(next, /ready at/, 90_000);
  }, 180_000);

  describe('PostgreSQL that refuses: one line naming DATABASE_URL and what to do', () => {
    it('nothing listening at the address', { timeout: 120_000 }, async () => {
      const closed = await listening();
      servers.pop()!.close();
      const url = `postgres://rollcall@127.0.0.1:${closed}/rollcall`;
      for (const command of ['serve', 'migrate']) {
        const result = run([command], { DATABASE_URL: url, DATA_DIR: tempDir() });
        expect(result.status).toBe(1);
        expect(result.stderr).toBe(`rollcall: DATABASE_URL: nothing accepts connections at 127.0.0.1:${closed} (connection refused): start PostgreSQL there, or correct the host and port in DATABASE_URL\n`);
      }
    });

    it('a wrong password (a server that answers as PostgreSQL does)', { timeout: 120_000 }, async () => {
      // PostgreSQL's answer to a bad password: an ErrorResponse with SQLSTATE 28P01, after the startup message.
      const port = await listening((socket) => {
        socket.once('data', () => {
          const fields = [['S', 'FATAL'], ['V', 'FATAL'], ['C', '28P01'], ['M', 'password authentication failed for user "rollcall"']];
          const body = Buffer.concat([...fields.map(([type, text]) => Buffer.from(`${type}${text}\0`)), Buffer.from([0])]);
          const length = Buffer.alloc(4);
          length.writeInt32BE(body.length + 4);
          socket.end(Buffer.concat([Buffer.from('E'), length, body]));
        });
      });
      // Not spawnSync: the stand-in server answers from this process's event loop.
      const child = spawn(process.execPath, [CLI, 'serve'], { env: cleanEnv({ DATABASE_URL: `postgres://rollcall:wrong-secret@127.0.0.1:${port}/rollcall`, DATA_DIR: tempDir() }) });
      children.push(child);
      const output = { stdout: '', stderr: '' };
      child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
      const result = { status: await exitOf(child), ...output };
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(
        `rollcall: DATABASE_URL: PostgreSQL refused the password of user "rollcall" at 127.0.0.1:${port}: correct the password in DATABASE_URL (postgres://user:password@host:port/database)\n`,
      );
      expect(result.stderr + result.stdout).not.toContain('wrong-secret');
    });

    it.skipIf(!process.env.TEST_DATABASE_URL)('a database that does not exist, and a role that does not (the local server)', { timeout: 120_000 }, () => {
      const server = new URL(process.env.TEST_DATABASE_URL!);
      const address = `${server.hostname}:${server.port || 5432}`;
      const missing = new URL(server);
      missing.pathname = '/rollcall_no_such_database';
      const result = run(['serve'], { DATABASE_URL: missing.toString(), DATA_DIR: tempDir() });
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(
        `rollcall: DATABASE_URL: the database "rollcall_no_such_database" does not exist at ${address}: create it (CREATE DATABASE "rollcall_no_such_database" ENCODING 'UTF8' TEMPLATE template0) or correct its name in DATABASE_URL\n`,
      );
      const stranger = new URL(server);
      stranger.username = 'rollcall_no_such_role';
      const refused = run(['migrate'], { DATABASE_URL: stranger.toString(), DATA_DIR: tempDir() });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/^rollcall: DATABASE_URL: PostgreSQL refused user "rollcall_no_such_role" at [\d.:]+ \(.*\): create the role, correct the user in DATABASE_URL, or allow it in pg_hba\.conf\n$/);
    });
  });
});
