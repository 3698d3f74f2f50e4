import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapIfEmpty } from '../src/bootstrap.ts';
import { sendDuePrompts, sendDueReminders, sendDueReports } from '../src/features/checkin-runs/feature.ts';
import { startTestApp } from './harness.ts';
import type { TestApp } from './harness.ts';
import { startSmtpSink } from './receivers.ts';
import { startInboundSmtp } from '../src/inbound/smtp-listener.ts';
import { loadConfig } from '../src/lib/config.ts';
import type { InboundSmtp } from '../src/inbound/smtp-listener.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOC = fs.readFileSync(path.join(ROOT, 'docs/checkins.md'), 'utf8');

/**
 * docs/checkins.md is followed word for word: its `sh` blocks run, in order, in one bash session against a real
 * app whose organization was created as `npm start` creates the first one, with a real SMTP server for what it
 * sends and its own inbound SMTP listener (INBOUND_SMTP_PORT) for the e-mail reply. The test plays the server's
 * background work (the minute jobs and the delivery worker) while the page waits for it; the three lines that name
 * the reader's server, key and inbound mail port are the only ones replaced.
 */
describe('docs/checkins.md', () => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let key: string;
  let inbound: InboundSmtp;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await startTestApp({}, { SMTP_URL: sink.url });
    // The reader's server has PUBLIC_URL (or runs on localhost:8080): its links open it.
    t.config.publicUrl = t.url;
    key = (await bootstrapIfEmpty(t.db, t.config, t.clock))!.generatedApiKey!;
    // The server the page starts (`INBOUND_SMTP_PORT=2525 npm start`) opens its inbound listener on the port that
    // `INBOUND` names; the test opens the same listener, for the same domain, on a free port (the one substitution).
    const start = /```text\n(\w+)=(\S+) npm start\n```/.exec(DOC);
    expect(start?.slice(1)).toEqual(['INBOUND_SMTP_PORT', '2525']);
    const started = loadConfig({ [start![1]]: start![2] });
    expect(started.inboundSmtpPort).toBe(Number(/^export INBOUND=smtp:\/\/localhost:(\d+) /m.exec(DOC)?.[1]));
    expect(started.inboundEmailDomain).toBe(t.config.inboundEmailDomain);
    inbound = await startInboundSmtp({ port: 0, host: '127.0.0.1', domain: t.config.inboundEmailDomain, routes: t.deps.inboundRoutes, logger: t.deps.logger });
  });
  afterAll(async () => {
    await inbound.close();
    await t.close();
    await sink.close();
  });

  it('asks, answers on the web and by e-mail reply, lists what is waiting, reports and shows the run, word for word', async () => {
    const blocks = [...DOC.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBe(14);
    const script = blocks.join('\n').split('\n').filter((line) => !/^export (ROLLCALL|KEY|INBOUND)=/.test(line)).join('\n');
    const bash = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: ROOT,
      env: {
        ...process.env, ROLLCALL: t.url, KEY: key, INBOUND: `smtp://127.0.0.1:${inbound.port}`, DATABASE_URL: t.config.databaseUrl, DATA_DIR: t.config.dataDir, NODE_ENV: 'test', LOG_LEVEL: 'silent',
        ROLLCALL_API_KEY: '', ROLLCALL_URL: '', ROLLCALL_API_URL: '', NO_COLOR: '1',
      },
    });
    let stdout = '';
    let stderr = '';
    bash.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    bash.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let done = false;
    const exited = new Promise<number>((resolve) => bash.on('close', (code) => resolve(code ?? 1)));
    void exited.then(() => (done = true));
    // The server's minute jobs and its delivery worker, while the page runs.
    while (!done) {
      await sendDuePrompts(t.deps);
      await sendDueReminders(t.deps);
      await sendDueReports(t.deps);
      await t.deps.delivery.runDue();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await exited, `${stderr}\n${stdout}`).toBe(0);
    const expected = [
      'delivered  checkin.prompt', 'To: mia@example.com', 'Reply-To: checkin-', 'Subject: Daily stand-up for 2026-03-10',
      'Good morning! Three questions, two minutes.', '1. What did you do yesterday?', `Answer on the web: ${t.url}/checkins/answer/`,
      '200', '{"user":"Mia Lopes","responses":["Shipped the importer","The exporter"]}',
      'Waiting for your answer today:', '• Daily stand-up (3 questions, 2026-03-10)', `${t.url}/checkins/answer/`,
      '{"user":"Otto Berg","responses":["Reviewed the importer","The release notes"]}\n{"user":"Mia Lopes","responses":["Shipped the importer","The exporter"]}',
      '{"time_for_report":"00:00"}',
      'Daily stand-up — 2026-03-10\n2 of 2 answered.\n\nMia Lopes\nWhat did you do yesterday?\n  Shipped the importer\nWhat will you do today?\n  The exporter\n\nOtto Berg\nWhat did you do yesterday?\n  Reviewed the importer\nWhat will you do today?\n  The release notes',
      '{"date":"2026-03-10","asked":2,"answered":2,"prompts":[{"user":"Mia Lopes","answered":true,"reminders_sent":0},{"user":"Otto Berg","answered":true,"reminders_sent":0}],"reports":[["email:mia@example.com","email:otto@example.com"]]}',
      '{"responses.0.response":["A whole number from 1 to 5."]}\n{"responses":["The required question at index 3 (\\"What blocks you?\\") has no answer."]}',
      '{"has_issue":true,"responses":[4,["Home"],true,"Waiting for the staging database"]}',
      '{"text":"Waiting for the staging database","state":"open","opened_on":"2026-03-10","days_open":0}',
      '{"state":"resolved","resolved_on":"2026-03-10","days_open":0}',
      '{"expected":2,"answered":2,"participation_rate":1,"people":[{"user":"Mia Lopes","answered":1,"current_streak":1},{"user":"Otto Berg","answered":1,"current_streak":1}]}',
      'date,person,answered\n2026-03-10,Mia Lopes,yes\n2026-03-10,Otto Berg,yes',
      '{"timezone":"Europe/Lisbon","language":"pt","holiday_calendar":"PT","notifications":{"reminders":false,"report_emails":true}}',
      '{"holiday_calendar":"ES-MD"}',
      '{"summary":{"date":"2026-05-01","participants":2,"responded":0,"pending":2,"away":0,"holiday":2,"existed":true},"holiday":["Mia Lopes","Otto Berg"]}',
    ];
    let from = 0;
    for (const text of expected) {
      const at = stdout.indexOf(text, from);
      expect(at, `${text} after position ${from} in:\n${stdout}\n${stderr}`).toBeGreaterThanOrEqual(0);
      from = at;
    }
    expect(sink.messages.filter((m) => m.subject === 'Daily stand-up report for 2026-03-10').map((m) => m.envelopeTo[0]).sort()).toEqual(['mia@example.com', 'otto@example.com']);
  }, 400_000);
});
