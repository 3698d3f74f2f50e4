/**
 * What the browser tests run against: the real `rollcall serve` on a fresh SQLite database (the first start
 * creates the organization, its admin and a known key), with a local SMTP sink for the sign-in codes, serving
 * the web app as built by `npm run build -w app`.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export const REPO = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(REPO, 'api/bin/rollcall.js');
export const ADMIN_KEY = `rk_${'AppTest000'.repeat(4)}`;
export const ADMIN_EMAIL = 'ada@acme.test';

export interface Mail {
  to: string[];
  text: string;
}

export async function startSmtpSink() {
  const messages: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), text: mail.text ?? '' });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** The first match of `pattern` in the newest e-mail to `to` after `after` messages, waiting for it to arrive. */
    async find(to: string, after: number, pattern: RegExp, what: string): Promise<string> {
      for (let i = 0; i < 200; i++) {
        const mail = messages.slice(after).filter((m) => m.to.includes(to)).at(-1);
        const found = pattern.exec(mail?.text ?? '')?.[1];
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no ${what} e-mailed to ${to}`);
    },
    /** The newest sign-in code e-mailed to `to` after `after` messages. */
    codeFor(to: string, after: number): Promise<string> {
      return this.find(to, after, /sign-in code is (\d{6})/, 'sign-in code');
    },
    /** The link of the newest invitation e-mailed to `to` after `after` messages. */
    invitationFor(to: string, after: number): Promise<string> {
      return this.find(to, after, /Accept the invitation: (\S+)/, 'invitation');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Running {
  url: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** The API with the admin's key (seeding what the browser then reads). */
  api(method: string, pathname: string, body?: unknown, key?: string): Promise<any>;
  /** `rollcall admin …` on the server's database, answering its --json output. */
  admin(...args: string[]): any;
  close(): Promise<void>;
}

export async function startServer(smtpUrl: string, extraEnv: Record<string, string> = {}): Promise<Running> {
  const appDir = process.env.APP_DIR ?? path.join(REPO, 'app/dist');
  if (!existsSync(path.join(appDir, 'index.html'))) throw new Error(`the app is not built in ${appDir}: run npm run build -w app`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rollcall-app-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SMTP_URL: smtpUrl,
    APP_DIR: appDir,
    BOOTSTRAP_ADMIN_EMAIL: ADMIN_EMAIL,
    BOOTSTRAP_API_KEY: ADMIN_KEY,
    ...extraEnv,
  };
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break;
    if (i > 300 || child.exitCode !== null) throw new Error(`the server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dataDir,
    env,
    async api(method, pathname, body, key = ADMIN_KEY) {
      const res = await fetch(`${url}${pathname}`, {
        method,
        headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${pathname}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : null;
    },
    admin(...args) {
      const result = spawnSync(process.execPath, [CLI, 'admin', ...args, '--json'], { env, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`rollcall admin ${args.join(' ')}: ${result.stderr}`);
      return JSON.parse(result.stdout);
    },
    async close() {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A signed-in browser session for `email` without the form: the code the sink received, exchanged as the app does
 * (POST /v1/cli/auth/session/), as the cookie to add to a browser context.
 */
export async function sessionCookie(server: Running, sink: Awaited<ReturnType<typeof startSmtpSink>>, email: string) {
  const before = sink.messages.length;
  const post = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await post('/v1/cli/auth/request-code/', { email });
  const code = await sink.codeFor(email, before);
  const session = await post('/v1/cli/auth/session/', { email, code });
  const token = /rollcall_session=([^;]+)/.exec(session.headers.get('set-cookie') ?? '')?.[1];
  if (!token) throw new Error(`no session for ${email}: ${session.status} ${await session.text()}`);
  return { name: 'rollcall_session', value: token, domain: '127.0.0.1', path: '/v1/', httpOnly: true, sameSite: 'Strict' as const };
}
