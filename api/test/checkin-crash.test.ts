import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/lib/ids.ts';
import { askDue } from '../src/features/checkin-runs/ask.ts';
import { startTestApp } from './harness.ts';
import type { TestApp } from './harness.ts';
import { startSmtpSink } from './receivers.ts';

const CHECKINS = 30;
const PER_CHECKIN = 10;
const DUE = '2026-03-10T09:00:00.000Z';

/** A SQLite file has one server process; the kill happens to the process asking, mid-firing. */
describe.runIf(process.env.ROLLCALL_TEST_ENGINE !== 'postgres')('Crash safety of the check-in loop: SIGKILL between firing and sending', () => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await startTestApp({}, { SMTP_URL: sink.url });
    const acme = await t.seedOrganization();
    const stamp = '2026-03-01T00:00:00.000Z';
    await t.db.transaction(async (trx) => {
      for (let c = 0; c < CHECKINS; c++) {
        const uuid = uuidv7();
        await trx('checkins').insert({
          uuid, organization_uuid: acme.org.uuid, name: `Stand-up ${c}`, active: true, is_archived: false, archived_at: null, frequency_type: 'daily', days: '1,2,3,4,5',
          time: '09:00', timezone: 'UTC', start_on: null, end_on: null, is_anonymous: false, allow_past_responses: false, allow_future_responses: false, template_uuid: null,
          report_channels: '[]', settings: '{}', created_by_uuid: acme.admin.uuid, created_at: stamp, updated_at: stamp,
        });
        await trx('checkin_questions').insert({ uuid: uuidv7(), checkin_uuid: uuid, position: 0, question: 'Done?', short_question: null, question_type: 'text', required: true, is_blocker: false, choices: '[]', extras: '{}', created_at: stamp, updated_at: stamp });
        const people = Array.from({ length: PER_CHECKIN }, (_, i) => ({
          uuid: uuidv7(), organization_uuid: acme.org.uuid, email: `p${c}-${i}@crash.test`, first_name: 'P', last_name: `${c}-${i}`, role: 'member' as const, is_active: true,
          timezone: null, occupation: null, image: null, created_at: stamp, updated_at: stamp,
        }));
        await trx('users').insert(people);
        await trx('checkin_participant_users').insert(people.map((p) => ({ checkin_uuid: uuid, user_uuid: p.uuid })));
      }
    });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('a firing killed part way leaves whole slots only; the next firing asks the rest; every prompt is sent exactly once', async () => {
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'fixtures/ask-due.ts'), t.config.databaseUrl, t.config.dataDir, DUE], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // Kill it once it has asked some check-ins and not all.
    const slots = async () => Number((await t.db('checkin_prompt_slots').count({ n: '*' }))[0].n);
    for (let tries = 0; tries < 2000 && (await slots()) < 3 && child.exitCode === null; tries++) await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill('SIGKILL');
    await exited;
    const asked = await slots();
    expect(asked, output).toBeGreaterThan(0);
    expect(asked, `the firing ended before the kill:\n${output}`).toBeLessThan(CHECKINS);

    // What survived is whole: each recorded slot has all its prompts, each prompt its one e-mail, nothing else.
    const count = async (table: 'checkin_prompts' | 'deliveries' | 'checkin_answer_tokens') => Number((await t.db(table).count({ n: '*' }))[0].n);
    expect(await count('checkin_prompts')).toBe(asked * PER_CHECKIN);
    expect(await count('deliveries')).toBe(asked * PER_CHECKIN);
    expect(await count('checkin_answer_tokens')).toBe(asked * PER_CHECKIN);

    // The server comes back: the next firing asks the others, once; the worker sends each e-mail once.
    t.clock.set('2026-03-10T09:05:00.000Z');
    expect(await askDue(t.db, t.config, t.clock.now())).toBe((CHECKINS - asked) * PER_CHECKIN);
    expect(await askDue(t.db, t.config, t.clock.now())).toBe(0);
    await t.deps.delivery.runDue();
    const received = sink.messages.map((m) => m.envelopeTo[0]);
    expect(received).toHaveLength(CHECKINS * PER_CHECKIN);
    expect(new Set(received).size).toBe(CHECKINS * PER_CHECKIN);
  }, 120_000);
});
