import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapIfEmpty } from '../src/bootstrap.ts';
import { startTestApp } from './harness.ts';
import type { TestApp } from './harness.ts';
import { startSmtpSink } from './receivers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOC = fs.readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8');
const EMAIL = 'ana@example.com';

/**
 * docs/cli.md is followed word for word: its `sh` blocks run, in order, in one bash session against a real app
 * whose organization was created as `npm start` creates the first one, with a real SMTP server. Like the reader,
 * the test types each code from the e-mail when one arrives; the three lines that name the reader's server, address
 * and key are the only ones replaced.
 */
describe('docs/cli.md', () => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let key: string;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await startTestApp({}, { SMTP_URL: sink.url });
    key = (await bootstrapIfEmpty(t.db, t.config, t.clock))!.generatedApiKey!;
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('signs in with curl and with the rollcall client, word for word', async () => {
    const blocks = [...DOC.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBeGreaterThan(10);
    const script = blocks.join('\n').split('\n').filter((line) => !/^export (ROLLCALL|EMAIL|KEY)=/.test(line)).join('\n');
    const bash = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: ROOT,
      env: {
        ...process.env, ROLLCALL: t.url, EMAIL, KEY: key, DATABASE_URL: t.config.databaseUrl, DATA_DIR: t.config.dataDir, NODE_ENV: 'test', LOG_LEVEL: 'silent',
        XDG_CONFIG_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-docs-')), ROLLCALL_API_KEY: '', ROLLCALL_URL: '', NO_COLOR: '1',
      },
    });
    let stdout = '';
    let stderr = '';
    bash.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    bash.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number>((resolve) => bash.on('close', (code) => resolve(code ?? 1)));
    // The reader: sends the outbox as the server's worker would, and types each new code from the e-mail.
    let typed = 0;
    let done = false;
    void exited.then(() => (done = true));
    while (!done) {
      await t.deps.delivery.runDue();
      const codes = sink.messages.filter((m) => m.envelopeTo.includes(EMAIL)).map((m) => /sign-in code is (\d{6})/.exec(m.text ?? '')?.[1]);
      for (; typed < codes.length; typed++) if (codes[typed]) bash.stdin.write(`${codes[typed]}\n`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const code = await exited;
    expect(code, `${stderr}\n${stdout}`).toBe(0);
    expect(typed).toBe(2);
    // Read from the outbox (docs/cli.md step 1), the code is the one the e-mail carried.
    const first = /sign-in code is (\d{6})/.exec(sink.messages.find((m) => m.envelopeTo.includes(EMAIL))?.text ?? '')?.[1];
    expect(stdout).toContain(`Your Rollcall sign-in code is ${first}\n`);
    const expected = [
      '"email": "ana@example.com"', '"role": "admin"',
      '"is_multi_org": false', 'To: ana@example.com', 'Subject: Your Rollcall sign-in code', 'Your Rollcall sign-in code is ',
      '"name": "My organization"', '"plan": "enterprise"', '"full_name": "Ana Lima"',
      '"authenticated": true', '"organization_name": "My organization"',
      '"name": "Daily stand-up"', '"Anything blocking you?"',
      '"followups_count": 1', '"action": "created"',
      'Blockers you reported today:', 'Daily stand-up: Waiting for the design review', '"classification": "blockers"', '"answered_by": "built_in"',
      '"detail": "Signed out: this token no longer works."', '401', '"code":"insufficient_scope","extra":{"required_scope":"agents"}',
      'Signed in as Ana Lima <ana@example.com> in My organization, until',
      'Signed in as Ana Lima <ana@example.com> in My organization (session until', 'Nothing is waiting for your answer today.',
      '✓ Sent to Daily stand-up (added to your answer).', 'ana@example.com', 'Signed out.',
      'deploy-bot: healthy. No messages.', '✓ Report saved for deploy-bot (',
      '"exchange_enabled": true', '"expires_in": 300', '"user": "Mia"', '"content": "Thanks for the demo"', '"giver": "Mia"',
    ];
    let from = 0;
    for (const text of expected) {
      const at = stdout.indexOf(text, from);
      expect(at, `${text} after position ${from} in:\n${stdout}\n${stderr}`).toBeGreaterThanOrEqual(0);
      from = at;
    }
  }, 180_000);
});
