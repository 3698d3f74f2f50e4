import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { startSmtpSink } from './receivers.ts';

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const API_DIR = path.resolve(import.meta.dirname, '..');
const CLI = path.join(API_DIR, 'src/cli.ts');

/** The runner's environment without what would change the server's or the client's behaviour. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { NODE_ENV: _mode, BOOTSTRAP_API_KEY: _key, ROLLCALL_API_KEY: _apiKey, ROLLCALL_URL: _url, ROLLCALL_API_URL: _apiUrl, ROLLCALL_AGENT_NAME: _agent, NO_COLOR: _noColor, FORCE_COLOR: _force, ...inherited } = process.env;
  return { ...inherited, LOG_LEVEL: 'warn', ...extra };
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The `rollcall` command as a client, driven as a person or a script would, against a started `rollcall serve`
 * whose sign-in codes go to a real SMTP server. Each test step runs the command as a separate process.
 */
describe('the rollcall command as a client', () => {
  let dataDir: string;
  let home: string;
  let url: string;
  let server: ChildProcessWithoutNullStreams;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let adminKey: string;

  const admin = (...args: string[]) => JSON.parse(spawnSync(process.execPath, [CLI, 'admin', ...args, '--json'], { env: cleanEnv({ DATA_DIR: dataDir }), encoding: 'utf8' }).stdout);
  const clientEnv = (extra: Record<string, string> = {}) => cleanEnv({ XDG_CONFIG_HOME: home, ROLLCALL_API_URL: url, ...extra });

  /** Runs a client command; `input` lines are written to stdin when the output asks (`prompts` in order). */
  function rollcall(args: string[], options: { env?: Record<string, string>; answers?: [RegExp, () => Promise<string> | string][] } = {}): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, ...args], { env: clientEnv(options.env) });
      let stdout = '';
      let stderr = '';
      const answers = [...(options.answers ?? [])];
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', async (chunk: Buffer) => {
        stderr += chunk.toString();
        const next = answers[0];
        if (next && next[0].test(stderr)) {
          answers.shift();
          child.stdin.write(`${await next[1]()}\n`);
        }
      });
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout, stderr }));
      if (answers.length === 0) child.stdin.end();
    });
  }

  /** The code in the newest sign-in e-mail to `to` (the server's delivery worker sends it within a poll). */
  async function codeFor(to: string, after: number): Promise<string> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const mail = sink.messages.slice(after).find((m) => m.envelopeTo.includes(to));
      const match = /sign-in code is (\d{6})/.exec(mail?.text ?? '');
      if (match) return match[1];
      if (Date.now() > deadline) throw new Error(`no code e-mailed to ${to}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-client-data-'));
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-client-home-'));
    sink = await startSmtpSink();
    // One person in two organizations, made with the operator commands (on a database `rollcall migrate` creates).
    const migrated = spawnSync(process.execPath, [CLI, 'migrate'], { env: cleanEnv({ DATA_DIR: dataDir }), encoding: 'utf8' });
    if (migrated.status !== 0) throw new Error(`rollcall migrate: ${migrated.stderr}`);
    admin('org', 'create', '--name', 'Acme', '--plan', 'pro');
    admin('org', 'create', '--name', 'Globex', '--plan', 'free');
    const ana = admin('user', 'create', '--org', 'acme', '--email', 'ana@acme.test', '--role', 'admin', '--first-name', 'Ana', '--last-name', 'Lima');
    admin('user', 'create', '--org', 'globex', '--email', 'ana@acme.test', '--first-name', 'Ana');
    adminKey = admin('key', 'create', '--user', ana.email, '--org', 'acme').key;
    server = spawn(process.execPath, [CLI, 'serve'], { env: cleanEnv({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SMTP_URL: sink.url, DELIVERY_POLL_MS: '50', LOG_LEVEL: 'info' }) });
    let output = '';
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 20_000);
      server.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /"url":"(http:\/\/[\d.:]+)"/.exec(output) ?? /listening[^\n]*?(http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
  }, 180_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await sink?.close();
  });

  it('signs in with a code typed at the prompts, choosing the organization, and keeps the session 0600 in the XDG config folder', async () => {
    const before = sink.messages.length;
    const run = await rollcall(['login'], {
      answers: [
        [/E-mail: $/, () => 'ana@acme.test'],
        [/Code from the e-mail: $/, () => codeFor('ana@acme.test', before)],
        [/Which one\? \[1-2\] $/, () => '1'],
      ],
    });
    expect(run.stderr).toContain('If an account uses this address, a six-digit sign-in code is on its way.');
    expect(run.stderr).toContain('  1) Acme\n  2) Globex\n');
    expect(run.stdout).toMatch(/^Signed in as Ana Lima <ana@acme\.test> in Acme, until \d{4}-\d\d-\d\d\.\n$/);
    expect(run.status).toBe(0);
    expect(run.stdout + run.stderr).not.toContain('\u001b['); // piped: no colours, no spinner
    const file = path.join(home, 'rollcall', 'session.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const session = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(session).toMatchObject({ api_url: url, token: expect.stringMatching(/^rct_/), user: { email: 'ana@acme.test' }, organization: { name: 'Acme' } });
  }, 120_000);

  it('shows status and me, and sends a stand-up update into today\'s check-ins', async () => {
    const empty = await rollcall(['status']);
    expect(empty.status).toBe(0);
    expect(empty.stdout).toMatch(/^Signed in as Ana Lima <ana@acme\.test> in Acme \(session until \d{4}-\d\d-\d\d\) at http/);
    expect(empty.stdout).toContain('Nothing is waiting for your answer today.');

    const me = (await fetch(`${url}/v1/me/`, { headers: { 'x-api-key': adminKey } }).then((r) => r.json())) as { uuid: string };
    const created = await fetch(`${url}/v1/checkins/create/`, {
      method: 'POST',
      headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Daily', schedule: { days: [0, 1, 2, 3, 4, 5, 6], timezone: 'UTC' }, participants: { user_uuids: [me.uuid] },
        questions: [{ question_type: 'text', question: 'Done?' }, { question_type: 'text', question: 'Next?' }, { question_type: 'text', question: 'Blockers?', is_blocker: true, required: false }],
      }),
    });
    expect(created.status).toBe(201);
    const pending = await rollcall(['status']);
    expect(pending.stdout).toMatch(/Waiting for your answer today:\n {2}• Daily \(3 questions, \d{4}-\d\d-\d\d\)\n/);
    const asJson = JSON.parse((await rollcall(['status', '--json'])).stdout);
    expect(asJson).toMatchObject({ authenticated: true, credential: 'bearer', pending_checkins: [{ followup_name: 'Daily' }] });

    const update = await rollcall(['update', '--done', 'Shipped the CLI', '--done', 'Wrote docs', '--doing', 'Tests', '--blocked', 'Review']);
    expect(update.status).toBe(0);
    expect(update.stdout).toBe('✓ Sent to Daily (new answer).\n');
    const again = JSON.parse((await rollcall(['update', '--json', 'Also', 'lunch'])).stdout);
    expect(again).toMatchObject({ followups_count: 1, attached_followups: [{ followup_name: 'Daily', action: 'updated' }] });
    expect((await rollcall(['status'])).stdout).toContain('Nothing is waiting for your answer today.');

    const who = await rollcall(['me']);
    expect(who.stdout).toMatch(/^Ana Lima <ana@acme\.test>\nRole: {10}admin\nOrganization: {2}Acme\n/);
    expect(JSON.parse((await rollcall(['me', '--json'])).stdout)).toMatchObject({ email: 'ana@acme.test', role: 'admin' });
  }, 120_000);

  it('speaks for an agent with ROLLCALL_API_KEY: health, report, messages', async () => {
    const env = { ROLLCALL_API_KEY: adminKey, ROLLCALL_AGENT_NAME: 'deploy-bot', XDG_CONFIG_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-agent-')) };
    const health = await rollcall(['health', '--message', 'Starting'], { env });
    expect(health.stdout).toBe('deploy-bot: healthy. No messages.\n');
    await fetch(`${url}/v1/agent-messages/`, { method: 'POST', headers: { 'x-api-key': adminKey, 'content-type': 'application/json' }, body: JSON.stringify({ agent_name: 'deploy-bot', content: 'Roll back 1.2', sender_name: 'Ana' }) });
    const report = await rollcall(['report', '--done', 'Deployed 1.3', '--milestone'], { env });
    expect(report.status).toBe(0);
    expect(report.stdout).toMatch(/^✓ Report saved for deploy-bot \([0-9a-f-]{36}\)\.\n1 message\(s\) waiting:\n {2}\d{4}-\d\d-\d\d \d\d:\d\d Ana: Roll back 1\.2\n$/);
    const unread = await rollcall(['messages', '--mark-read', '--json'], { env });
    expect(JSON.parse(unread.stdout)).toMatchObject({ messages: [{ content: 'Roll back 1.2' }], marked_read: 1 });
    expect((await rollcall(['messages'], { env })).stdout).toBe('No unread messages for deploy-bot.\n');
    // The flag says what the server records and the command prints.
    expect((await rollcall(['health', '--unhealthy', '--agent', 'other-bot'], { env })).stdout).toBe('other-bot: unhealthy. No messages.\n');
    expect(JSON.parse((await rollcall(['health', '--degraded', '--json', '--agent', 'other-bot'], { env })).stdout)).toMatchObject({ agent_name: 'other-bot', status: 'unhealthy' });
  }, 120_000);

  it('signs in for scripts with flags, and ends with documented exit codes', async () => {
    const xdg = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-script-'));
    const env = { XDG_CONFIG_HOME: xdg };
    const before = sink.messages.length;
    await fetch(`${url}/v1/cli/auth/request-code/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'ana@acme.test' }) });
    const code = await codeFor('ana@acme.test', before);
    const wrongOrg = await rollcall(['login', '--email', 'ana@acme.test', '--code', code, '--organization', 'Initech'], { env });
    expect(wrongOrg.status).toBe(2);
    expect(wrongOrg.stderr).toContain('--organization: this address has no account in "Initech"; it has one in Acme, Globex.');
    const login = await rollcall(['login', '--email', 'ana@acme.test', '--code', code, '--organization', 'globex', '--json'], { env });
    expect(login.status).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({ organization: { name: 'Globex', plan: 'free' }, user: { email: 'ana@acme.test' } });
    // A free-plan organization: status works, a stand-up update is refused (4).
    expect((await rollcall(['status'], { env })).status).toBe(0);
    const refused = await rollcall(['update', '--done', 'x'], { env });
    expect(refused.status).toBe(4);
    expect(refused.stderr).toBe('rollcall: This endpoint is not available on the free plan. (plan_upgrade_required)\n');

    // 2: usage; 3: not signed in; 1: refused by the server; 6: no server.
    expect((await rollcall(['status', '--bogus'], { env })).status).toBe(2);
    expect((await rollcall(['update'], { env })).status).toBe(2);
    expect((await rollcall(['report', 'text'], { env })).stderr).toContain('name the agent: --agent NAME, or set ROLLCALL_AGENT_NAME.');
    const nobody = await rollcall(['me'], { env: { XDG_CONFIG_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-none-')) } });
    expect(nobody.status).toBe(3);
    expect(nobody.stderr).toBe(`rollcall: not signed in to ${url}: run \`rollcall login\`, or set ROLLCALL_API_KEY.\n`);
    const badCode = await rollcall(['login', '--email', 'ana@acme.test', '--code', '000000'], { env });
    expect([1, 5]).toContain(badCode.status);
    const closed = await closedPort();
    const offline = await rollcall(['me', '--api-url', `http://127.0.0.1:${closed}/v1/`], { env: { ...env, ROLLCALL_API_KEY: adminKey } });
    expect(offline.status).toBe(6);
    expect(offline.stderr).toBe(`rollcall: cannot reach http://127.0.0.1:${closed}: ECONNREFUSED\n`);

    // Logout revokes on the server, then forgets the session.
    const sessionFile = path.join(xdg, 'rollcall', 'session.json');
    const session = fs.readFileSync(sessionFile, 'utf8');
    const token = JSON.parse(session).token;
    const out = await rollcall(['logout'], { env });
    expect(out.stdout).toBe('Signed out.\n');
    expect(fs.existsSync(sessionFile)).toBe(false);
    expect((await fetch(`${url}/v1/me/`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await rollcall(['me'], { env })).status).toBe(3);

    // A refused credential is named with what to do: the server's 401 detail is the same for every reason.
    const refusals: [Record<string, string>, string][] = [
      [{ ROLLCALL_API_KEY: 'rk_wrong' }, 'the API key from ROLLCALL_API_KEY is malformed: an API key is rk_ and 40 letters and digits (credential_malformed).'],
      [{ ROLLCALL_API_KEY: `rk_${'0'.repeat(40)}` }, `the API key from ROLLCALL_API_KEY is unknown to ${url}: revoked, regenerated, or made on another server; check the key, or create a new one (invalid_credentials).`],
      [{}, `the session in ${sessionFile} is no longer valid on ${url} (signed out, or revoked); sign in again with \`rollcall login\` (invalid_credentials).`],
    ];
    fs.writeFileSync(sessionFile, session); // the session logout revoked, kept by a copy
    for (const [extra, said] of refusals) expect(await rollcall(['me'], { env: { ...env, ...extra } })).toEqual({ status: 3, stdout: '', stderr: `rollcall: ${said}\n` });
  }, 120_000);

  it('lists the client commands and exit codes in its help', async () => {
    const help = await rollcall(['help']);
    expect(help.stdout).toContain('rollcall login [--email E] [--code C] [--organization ORG]');
    expect(help.stdout).toContain('Exit codes: 0 done, 1 refused by the server, 2 usage, 3 not signed');
  });
});
