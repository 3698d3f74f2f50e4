/**
 * Check-in loop benchmark (the `checkins` phase of `npm run bench`): 10,000 participants in 200 check-ins across
 * 24 time zones, all due in the same minute. Measures the time from the due minute to the last prompt handed to
 * SMTP (target < 60 s on SQLite), against the delivery worker's own rate measured in the same run (the same
 * number of plain e-mails already in the outbox); peak RSS (< 250 MB); GET /v1/me/ p99 while it runs against the
 * idle p99 (< 2×); then 10,000 web answers in 60 s, paced (p99 < 50 ms).
 *
 * In process, on a temporary SQLite file, with a local SMTP server that counts and keeps each message's answer
 * link; the app's clock is the system clock shifted so that the due minute is "now" when the run starts.
 * Alone: `node api/bench/checkin-loop.ts` (BENCH_PARTICIPANTS, BENCH_ANSWERS and BENCH_ANSWER_SECONDS scale it down).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { loadConfig, RATE_LIMIT_SCOPES } from '../src/lib/config.ts';
import type { Config } from '../src/lib/config.ts';
import { createLogger } from '../src/lib/logger.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { createOrganization } from '../src/features/organization/service.ts';
import { issueKey } from '../src/features/api-keys/service.ts';
import { enqueueMany } from '../src/outbox/deliveries.ts';
import { sendDuePrompts } from '../src/features/checkin-runs/feature.ts';
import { startAppOnPort } from '../test/app-on-port.ts';

const ZONES = [
  'Pacific/Honolulu', 'America/Anchorage', 'America/Los_Angeles', 'America/Denver', 'America/Chicago', 'America/New_York', 'America/Halifax', 'America/Sao_Paulo',
  'Atlantic/South_Georgia', 'Atlantic/Azores', 'Europe/London', 'Europe/Berlin', 'Europe/Athens', 'Europe/Moscow', 'Asia/Dubai', 'Asia/Karachi',
  'Asia/Dhaka', 'Asia/Bangkok', 'Asia/Shanghai', 'Asia/Tokyo', 'Australia/Sydney', 'Pacific/Noumea', 'Pacific/Auckland', 'Pacific/Kiritimati',
];

/** A local SMTP server: counts messages, keeps each one's answer token (the text is quoted-printable). */
async function startSink() {
  const tokens: string[] = [];
  let count = 0;
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('latin1').replace(/=\r?\n/g, '');
        const match = /\/checkins\/answer\/([0-9A-Za-z]{43})/.exec(raw);
        if (match) tokens.push(match[1]);
        count++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    tokens,
    count: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const percentile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
};

/** GET /v1/me/ in `concurrency` loops until `stop()`: the latencies. */
function meLoad(url: string, key: string, concurrency = 2) {
  const latencies: number[] = [];
  let running = true;
  const loops = Array.from({ length: concurrency }, async () => {
    while (running) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${url}/v1/me/`, { headers: { 'x-api-key': key } });
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
      } catch {
        // A kept-alive connection the server closed meanwhile: not a measurement.
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });
  return async () => {
    running = false;
    await Promise.all(loops);
    return latencies;
  };
}

export interface CheckinLoopResult {
  participants: number;
  checkins: number;
  jobMs: number;
  dueToLastSentMs: number;
  baselineSendMs: number;
  ratio: number;
  peakRssMb: number;
  meIdleP99Ms: number;
  meDuringP99Ms: number;
  meRatio: number;
  answers: number;
  answerSeconds: number;
  answerP99Ms: number;
  answerNon2xx: number;
}

export async function benchCheckinLoop(options: { print?: boolean; participants?: number; answers?: number; answerSeconds?: number } = {}): Promise<CheckinLoopResult> {
  const participants = options.participants ?? Number(process.env.BENCH_PARTICIPANTS ?? 10_000);
  const checkins = Math.max(1, Math.round(participants / 50));
  const answers = Math.min(options.answers ?? Number(process.env.BENCH_ANSWERS ?? 10_000), participants);
  const answerSeconds = options.answerSeconds ?? Number(process.env.BENCH_ANSWER_SECONDS ?? 60);
  const log = (line: string) => options.print && console.log(line);
  const sink = await startSink();
  // The due minute: a Tuesday 09:00 UTC; the app's clock runs from it at the speed of the real one.
  const due = new Date('2026-03-10T09:00:00.000Z');
  let offset = due.getTime() - Date.now();
  const clock = { now: () => new Date(Date.now() + offset) };
  const config = (dir: string): Config => {
    const base = loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, REQUIRE_HTTPS: 'false', LOG_LEVEL: 'silent', SMTP_URL: sink.url, PUBLIC_URL: 'http://rollcall.example.com' });
    const hourlyBudgets = Object.fromEntries(RATE_LIMIT_SCOPES.map((scope) => [scope, 10_000_000])) as Config['hourlyBudgets'];
    return { ...base, hourlyBudgets };
  };
  const app = await startAppOnPort({ dirPrefix: 'rollcall-bench-loop-', config, clock, logger: createLogger('silent'), keepAliveTimeout: 60_000 });
  try {
    const { db, deps, url } = app;
    const stamp = new Date(due.getTime() - 86_400_000).toISOString();
    const org = await createOrganization(db, { name: 'Bench', plan: 'pro', planBetaEnabled: false }, new Date(stamp));
    const admin = uuidv7();
    await db('users').insert({ uuid: admin, organization_uuid: org.uuid, email: 'admin@bench.test', first_name: 'Ada', last_name: 'Admin', role: 'admin', is_active: true, timezone: null, occupation: null, image: null, created_at: stamp, updated_at: stamp });
    const { secret: key } = await issueKey(db, { organizationUuid: org.uuid, ownerUuid: admin, kind: 'personal', name: 'bench' }, new Date(stamp));
    const users = Array.from({ length: participants }, (_, i) => ({
      uuid: uuidv7(), organization_uuid: org.uuid, email: `p${i}@bench.test`, first_name: `P${i}`, last_name: 'Bench', role: 'member' as const, is_active: true,
      timezone: ZONES[i % ZONES.length], occupation: null, image: null, created_at: stamp, updated_at: stamp,
    }));
    await db.transaction(async (trx) => {
      for (let i = 0; i < users.length; i += 50) await trx('users').insert(users.slice(i, i + 50));
      for (let c = 0; c < checkins; c++) {
        const zone = ZONES[c % ZONES.length];
        const time = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(due);
        const uuid = uuidv7();
        await trx('checkins').insert({
          uuid, organization_uuid: org.uuid, name: `Stand-up ${c}`, active: true, is_archived: false, archived_at: null, frequency_type: 'daily', days: '1,2,3,4,5,6,7',
          time, timezone: zone, start_on: null, end_on: null, is_anonymous: false, allow_past_responses: false, allow_future_responses: false, template_uuid: null,
          report_channels: '[]', settings: JSON.stringify({ reminders_max_count: 2, reminders_frequency_time: 60, time_for_report: null }), created_by_uuid: admin, created_at: stamp, updated_at: stamp,
        });
        await trx('checkin_questions').insert(['What did you do?', 'What will you do?', 'Anything blocking you?'].map((question, position) => ({
          uuid: uuidv7(), checkin_uuid: uuid, position, question, short_question: null, question_type: 'text', required: position < 2, is_blocker: position === 2, choices: '[]', extras: '{}', created_at: stamp, updated_at: stamp,
        })));
        const members = users.slice(c * 50, c * 50 + 50).map((u) => ({ checkin_uuid: uuid, user_uuid: u.uuid }));
        for (let i = 0; i < members.length; i += 100) await trx('checkin_participant_users').insert(members.slice(i, i + 100));
      }
    });
    const deliveredCount = async () => Number((await db('deliveries').where({ status: 'delivered' }).count({ n: '*' }))[0].n);
    const waitSent = async (n: number) => {
      while (sink.count() < n) await new Promise((resolve) => setTimeout(resolve, 20));
    };

    // Baseline: the worker alone, sending as many plain e-mails as there are participants.
    offset = due.getTime() - 3_600_000 - Date.now();
    const plain = users.map((u) => ({ organizationUuid: org.uuid, channel: 'email' as const, kind: 'bench', destination: u.email, webhookId: null, payload: { to: [u.email], subject: 'Hello', text: 'A message of about the size of a prompt.\n'.repeat(8) } }));
    await db.transaction((trx) => enqueueMany(trx, plain, clock.now()));
    let t0 = performance.now();
    deps.delivery.start();
    await waitSent(participants);
    const baselineSendMs = performance.now() - t0;
    while ((await deliveredCount()) < participants) await new Promise((resolve) => setTimeout(resolve, 20));
    log(`  baseline: the delivery worker sent ${participants} e-mails in ${(baselineSendMs / 1000).toFixed(1)} s (${Math.round(participants / (baselineSendMs / 1000))}/s)`);

    // /v1/me/ idle.
    let stopMe = meLoad(url, key);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idle = await stopMe();

    // The due minute.
    offset = due.getTime() - Date.now();
    const rssBefore = process.memoryUsage().rss;
    let peakRss = rssBefore;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    stopMe = meLoad(url, key);
    t0 = performance.now();
    const asked = await sendDuePrompts(deps);
    const jobMs = performance.now() - t0;
    await waitSent(participants * 2);
    const dueToLastSentMs = performance.now() - t0;
    const during = await stopMe();
    clearInterval(sampler);
    if (asked !== participants) throw new Error(`asked ${asked}, expected ${participants}`);
    const meIdleP99Ms = percentile(idle, 0.99);
    const meDuringP99Ms = percentile(during, 0.99);
    log(`  ${participants} participants in ${checkins} check-ins across ${ZONES.length} time zones, due at once: the job wrote ${asked} prompts in ${(jobMs / 1000).toFixed(1)} s; the last was handed to SMTP ${(dueToLastSentMs / 1000).toFixed(1)} s after the due minute (target < 60 s), ${(dueToLastSentMs / baselineSendMs).toFixed(2)}× the worker's own time for as many e-mails`);
    log(`  peak RSS ${Math.round(peakRss / 1048576)} MB (target < 250 MB), ${Math.round(rssBefore / 1048576)} MB before the due minute (this process also holds the SMTP server and the clients); GET /v1/me/ p99 ${meDuringP99Ms.toFixed(1)} ms while it ran, ${meIdleP99Ms.toFixed(1)} ms idle: ${(meDuringP99Ms / meIdleP99Ms).toFixed(2)}× (target < 2×)`);

    // Web answers, paced: `answers` in `answerSeconds`, each a form post with the page's anti-forgery value.
    const first = await fetch(`${url}/checkins/answer/${sink.tokens[0]}`);
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
    const formKey = /name="form_key" value="([0-9a-f]+)"/.exec(await first.text())?.[1] ?? '';
    const questionUuids = new Map<string, string[]>();
    for (const q of await db('checkin_questions').select('uuid', 'checkin_uuid', 'position')) questionUuids.set(q.checkin_uuid, [...(questionUuids.get(q.checkin_uuid) ?? []), q.uuid]);
    const grants = new Map((await db('checkin_answer_tokens').select('token_hash', 'checkin_uuid')).map((r) => [r.token_hash, r.checkin_uuid]));
    const { createHash } = await import('node:crypto');
    const latencies: number[] = [];
    let non2xx = 0;
    const started = performance.now();
    const interval = (answerSeconds * 1000) / answers;
    // Paced: answer i is sent at its time, by one of 64 senders (a bounded number of connections, as browsers
    // spread over a day would be); a request that fails counts as not 200.
    let next = 0;
    await Promise.all(Array.from({ length: 64 }, async () => {
      for (let i = next++; i < answers; i = next++) {
        const token = sink.tokens[i];
        const wait = started + i * interval - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const checkin = grants.get(createHash('sha256').update(token).digest('hex'))!;
        const [q0, q1] = questionUuids.get(checkin)!;
        const body = new URLSearchParams([['form_key', formKey], [`q.${q0}`, `Shipped item ${i}`], [`q.${q1}`, 'More of it']]).toString();
        const s = performance.now();
        try {
          const res = await fetch(`${url}/checkins/answer/${token}`, { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body });
          await res.arrayBuffer();
          if (res.status !== 200) non2xx++;
        } catch {
          non2xx++;
        }
        latencies.push(performance.now() - s);
      }
    }));
    const answeredIn = (performance.now() - started) / 1000;
    const answerP99Ms = percentile(latencies, 0.99);
    log(`  ${answers} web answers in ${answeredIn.toFixed(1)} s: p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${answerP99Ms.toFixed(1)} ms (target < 50 ms), ${non2xx} not 200`);
    return {
      participants, checkins, jobMs, dueToLastSentMs, baselineSendMs, ratio: dueToLastSentMs / baselineSendMs, peakRssMb: Math.round(peakRss / 1048576),
      meIdleP99Ms, meDuringP99Ms, meRatio: meDuringP99Ms / meIdleP99Ms, answers, answerSeconds: answeredIn, answerP99Ms, answerNon2xx: non2xx,
    };
  } finally {
    await app.close();
    await sink.close();
  }
}

if (import.meta.url === pathToFileURL(path.resolve(process.argv[1] ?? '')).href) {
  console.log('== check-in loop ==');
  await benchCheckinLoop({ print: true });
}
