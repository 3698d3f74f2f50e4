import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/lib/ids.ts';
import { askDue } from '../src/features/checkin-runs/ask.ts';
import { remindDue } from '../src/features/checkin-runs/remind.ts';
import { reportDue } from '../src/features/checkin-runs/report.ts';
import { startTestApp } from './harness.ts';
import type { TestApp } from './harness.ts';
import { startSmtpSink } from './receivers.ts';

const PEOPLE = 170;
const KINDS = ['checkin.prompt', 'checkin.reminder', 'checkin.report'];
const DOC = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/checkins.md'), 'utf8');

/**
 * Check-in e-mail is sent at least once: a message the SMTP server took while the worker was killed, before the
 * worker marked its row, goes out again once the row is due again (on PostgreSQL, once the dead process's lease
 * lapses). Each outbox row keeps one Message-ID for every attempt, so a mail system that already has the message
 * drops the copy. A wave of prompts, reminders and reports (510 e-mails) is sent by a worker in a process of its
 * own; the SMTP server holds one message of each kind unanswered (taken, as a server that delivered it, but the
 * worker never hears back) and the process is SIGKILLed. Both engines.
 */
describe('Crash safety of check-in e-mail: SIGKILL while sending, on a wave of prompts, reminders and reports', () => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let child: ChildProcess | null = null;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await startTestApp({}, { SMTP_URL: sink.url });
    const acme = await t.seedOrganization();
    const stamp = '2026-03-01T00:00:00.000Z';
    const checkin = uuidv7();
    const settings = { reminders_max_count: 1, reminders_frequency_time: 30, time_for_report: '10:00' };
    await t.db.transaction(async (trx) => {
      await trx('checkins').insert({
        uuid: checkin, organization_uuid: acme.org.uuid, name: 'Stand-up', active: true, is_archived: false, archived_at: null, frequency_type: 'daily', days: '1,2,3,4,5',
        time: '09:00', timezone: 'UTC', start_on: null, end_on: null, is_anonymous: false, allow_past_responses: false, allow_future_responses: false, template_uuid: null,
        report_channels: '[]', settings: JSON.stringify(settings), created_by_uuid: acme.admin.uuid, created_at: stamp, updated_at: stamp,
      });
      await trx('checkin_questions').insert({ uuid: uuidv7(), checkin_uuid: checkin, position: 0, question: 'Done?', short_question: null, question_type: 'text', required: true, is_blocker: false, choices: '[]', extras: '{}', created_at: stamp, updated_at: stamp });
      const people = Array.from({ length: PEOPLE }, (_, i) => ({
        uuid: uuidv7(), organization_uuid: acme.org.uuid, email: `p${i}@crash.test`, first_name: 'P', last_name: `${i}`, role: 'member' as const, is_active: true,
        timezone: null, occupation: null, image: null, created_at: stamp, updated_at: stamp,
      }));
      for (let i = 0; i < people.length; i += 40) {
        await trx('users').insert(people.slice(i, i + 40));
        await trx('checkin_participant_users').insert(people.slice(i, i + 40).map((p) => ({ checkin_uuid: checkin, user_uuid: p.uuid })));
      }
    });
    // The day's wave: a prompt at 09:00, a reminder at 09:30 and the report at 10:00, for each of the 170.
    for (const [at, job] of [['09:00', askDue], ['09:30', remindDue], ['10:00', reportDue]] as const) {
      t.clock.set(`2026-03-10T${at}:00.000Z`);
      await job(t.db, t.config, t.clock.now());
    }
    expect(Number((await t.db('deliveries').count({ n: '*' }))[0].n)).toBe(3 * PEOPLE);
  });
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await t.close();
    await sink.close();
  });

  it('sends every row at least once, each copy with its row\'s one Message-ID, and the doc says so', async () => {
    // The server holds the first message of each kind: it has it, the worker never hears so.
    const held = new Map<string, string>();
    sink.setAfterData((mail) => {
      const kind = mail.subject?.startsWith('Reminder: ') ? 'checkin.reminder' : mail.subject?.includes(' report for ') ? 'checkin.report' : 'checkin.prompt';
      if (held.has(kind)) return 'accept';
      held.set(kind, mail.messageId!);
      return 'hold';
    });
    child = spawn(process.execPath, [path.join(import.meta.dirname, 'fixtures/deliver.ts'), t.config.databaseUrl, t.config.dataDir, sink.url], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, WEBHOOK_TIMEOUT_MS: '300000' } });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<void>((resolve) => child!.once('exit', () => resolve()));
    for (let i = 0; i < 12_000 && held.size < 3 && child.exitCode === null; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect([...held.keys()].sort(), output).toEqual(KINDS);
    child.kill('SIGKILL');
    await exited;

    // The server is back (here: this process's worker, past any lease the dead one held); the held rows go again.
    sink.setAfterData(() => 'accept');
    t.clock.set(new Date(Date.now() + 3_600_000));
    await t.deps.delivery.runDue();
    const rows: { kind: string; status: string; destination: string }[] = await t.db('deliveries').select('kind', 'status', 'destination');
    expect(rows.filter((r) => r.status !== 'delivered')).toEqual([]);

    // Each row (one per kind and person here) arrived, and every copy of it carries the same Message-ID.
    const idsByRow = new Map<string, Set<string>>();
    for (const m of sink.messages) {
      const kind = m.subject?.startsWith('Reminder: ') ? 'reminder' : m.subject?.includes(' report for ') ? 'report' : 'prompt';
      const key = `${kind} ${m.envelopeTo[0]}`;
      idsByRow.set(key, new Set([...(idsByRow.get(key) ?? []), m.messageId!]));
    }
    expect(idsByRow.size).toBe(3 * PEOPLE);
    expect([...idsByRow].filter(([, ids]) => ids.size !== 1)).toEqual([]);
    expect(new Set(sink.messages.map((m) => m.messageId)).size).toBe(3 * PEOPLE);
    // The held ones went twice, with their first Message-ID; no more copies than rows on the wire at the kill.
    for (const id of held.values()) expect(sink.messages.filter((m) => m.messageId === id)).toHaveLength(2);
    expect(sink.messages.length - 3 * PEOPLE).toBeGreaterThanOrEqual(3);
    expect(sink.messages.length - 3 * PEOPLE).toBeLessThanOrEqual(t.config.delivery.concurrency);

    // What docs/checkins.md promises is what happened: nothing lost, a copy possible, with the same Message-ID.
    expect(DOC).not.toMatch(/neither loses nor repeats/);
    expect(DOC).toMatch(/at least once/);
    expect(DOC).toMatch(/same Message-ID/);
  }, 180_000);
});
