/**
 * Check-in benchmark: 200 users submitting to one check-in concurrently, and a 90-day history read
 * of 50 users, against the GET /v1/me/ baseline measured in the same run; then the same history read with
 * 10× more rows in the table, which must stay index-backed (≤ 2× slower).
 *
 * Self-contained: its own app on an ephemeral port with a temporary DATA_DIR. The main runner calls
 * `benchCheckins()`; alone: `node api/bench/checkins.ts` (env BENCH_SECONDS scales the rounds, default 5).
 * Load is plain concurrent fetch in waves (N users at the same moment), so the numbers include the client,
 * which shares the process and CPU with the server, for the baseline and the measurements alike.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startInProcessApp } from './in-process-app.ts';
import type { Db } from '../src/db/connection.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { writeJson } from '../src/lib/json.ts';
import { createOrganization } from '../src/features/organization/service.ts';
import { createUser } from '../src/features/users/repository.ts';
import { issueKey } from '../src/features/api-keys/service.ts';
import { lookupCredential } from '../src/auth/credentials.ts';
import { sha256Hex } from '../src/lib/secrets.ts';
import { createCheckin } from '../src/features/checkins/service.ts';
import { addDays, localDate } from '../src/lib/dates.ts';

export interface Measurement {
  name: string;
  requests: number;
  reqPerSec: number;
  p99Ms: number;
  non2xx: number;
}

export interface CheckinBenchResult {
  baseline: Measurement;
  historyBaseline: Measurement;
  submit: Measurement;
  history: Measurement;
  historyLarge: Measurement & { p50Ms: number };
  submitRatio: number;
  historyRatio: number;
  /** History p50 latency with 10× rows ÷ with 1× rows; must stay ≤ 2. */
  growthSlowdown: number;
  historyRows: { base: number; large: number };
  queryPlan: string[];
}

const SUBMITTERS = 200;
const HISTORY_USERS = 50;
const HISTORY_DAYS = 90;

interface Timed extends Measurement {
  p50Ms: number;
}

const percentile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];

/**
 * `rounds` waves of `concurrency` requests fired at once (plain fetch, keep-alive), each wave awaited before
 * the next: exactly "N users at the same moment". Latency is per request, client-side; req/s is requests ÷
 * wall time. Any non-2xx answer is counted and reported.
 */
async function burst(name: string, params: { concurrency: number; rounds: number; request: (i: number) => { url: string; init: RequestInit } }): Promise<Timed> {
  const latencies: number[] = [];
  let non2xx = 0;
  let n = 0;
  const started = performance.now();
  for (let round = 0; round < params.rounds; round++) {
    await Promise.all(
      Array.from({ length: params.concurrency }, async () => {
        const { url, init } = params.request(n++);
        const t0 = performance.now();
        const res = await fetch(url, init);
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (res.status < 200 || res.status >= 300) non2xx++;
      }),
    );
  }
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const round1 = (x: number) => Math.round(x * 10) / 10;
  return { name, requests: latencies.length, reqPerSec: round1(latencies.length / elapsed), p99Ms: round1(percentile(latencies, 0.99)), p50Ms: round1(percentile(latencies, 0.5)), non2xx };
}

/** Inserts `days` days of answered stand-ups for `users`, ending at `lastDay`, in one transaction. */
async function seedHistory(db: Db, params: { organizationUuid: string; checkinUuid: string; users: string[]; lastDay: string; fromDayOffset: number; days: number; questions: { uuid: string; question: string }[] }) {
  const stamp = new Date().toISOString();
  const rows: Record<string, unknown>[] = [];
  for (let d = params.fromDayOffset; d < params.fromDayOffset + params.days; d++) {
    const day = addDays(params.lastDay, -d);
    for (const user of params.users) {
      rows.push({
        uuid: uuidv7(),
        organization_uuid: params.organizationUuid,
        checkin_uuid: params.checkinUuid,
        user_uuid: user,
        response_date: day,
        answers: writeJson(params.questions.map((q, index) => ({ uuid: q.uuid, index, question: q.question, response: `Work of ${day}: reviewed pull requests and shipped a fix` }))),
        response_completed: true,
        has_issue: false,
        last_question_index: params.questions.length - 1,
        created_at: stamp,
        updated_at: stamp,
      });
    }
  }
  await db.transaction(async (trx) => {
    for (let i = 0; i < rows.length; i += 500) await trx('checkin_responses').insert(rows.slice(i, i + 500));
  });
  return rows.length;
}

/** `historyOnly`: only the history read and its growth (BENCH_ONLY=history), without the submissions. */
export async function benchCheckins(options: { seconds?: number; log?: (line: string) => void; historyOnly?: boolean } = {}): Promise<CheckinBenchResult> {
  const seconds = options.seconds ?? Number(process.env.BENCH_SECONDS ?? 5);
  const log = options.log ?? ((line: string) => console.log(line));
  const { db, url, close } = await startInProcessApp('checkins');

  try {
    // Seed with service functions: an organization, its admin, 200 people with keys, two check-ins.
    const now = new Date();
    const org = await createOrganization(db, { name: 'Bench', plan: 'enterprise' }, now);
    const admin = await createUser(db, { organizationUuid: org.uuid, email: 'admin@bench.test', firstName: 'Ada', lastName: 'Admin', role: 'admin' }, now);
    const adminKey = (await issueKey(db, { organizationUuid: org.uuid, ownerUuid: admin.uuid, kind: 'personal', name: 'bench' }, now)).secret;
    const people: { uuid: string; key: string }[] = [];
    for (let i = 0; i < SUBMITTERS; i++) {
      const user = await createUser(db, { organizationUuid: org.uuid, email: `person${i}@bench.test`, firstName: `Person${i}`, lastName: 'Bench' }, now);
      people.push({ uuid: user.uuid, key: (await issueKey(db, { organizationUuid: org.uuid, ownerUuid: user.uuid, kind: 'personal', name: 'bench' }, now)).secret });
    }
    const resolution = await lookupCredential(db, { kind: 'api_key', hash: sha256Hex(adminKey) }, now);
    if (!resolution.ok) throw new Error('bench admin key did not resolve');
    const everyDay = { days: [0, 1, 2, 3, 4, 5, 6], time: '09:00', timezone: 'UTC' };
    const standup = await db.transaction((trx) =>
      createCheckin(trx, resolution.actor, { name: 'Stand-up', schedule: everyDay, participants: { user_uuids: people.map((p) => p.uuid) }, allow_past_responses: true }, now),
    );
    const history = await db.transaction((trx) =>
      createCheckin(trx, resolution.actor, { name: 'History', schedule: everyDay, participants: { user_uuids: people.slice(0, HISTORY_USERS).map((p) => p.uuid) } }, now),
    );
    const today = localDate(now, 'UTC');
    const questions = standup.questions.map((q) => ({ uuid: q.uuid, question: q.question }));

    const rounds = Math.max(5, seconds * 4);
    const me = (concurrency: number) =>
      burst(`GET /v1/me/ (baseline), ${concurrency} at once`, { concurrency, rounds, request: (i) => ({ url: `${url}/v1/me/`, init: { headers: { 'x-api-key': people[i % concurrency].key } } }) });
    // Warm-up: every credential resolved once (the credential cache), connections opened.
    await me(SUBMITTERS);

    // Baseline: the cheapest authenticated read, in the same shape as each measurement.
    const baseline = options.historyOnly ? null : await me(SUBMITTERS);
    // 200 users submit at the same moment, round after round: request i is user i % 200 answering day
    // (today − ⌊i / 200⌋), so every request is a real first submission (201).
    const answer = (day: string) => JSON.stringify({ responses: questions.map((q, index) => ({ uuid: q.uuid, response: index === 2 ? 'none' : `Bench answer ${day}` })), response_date: day });
    const submit = options.historyOnly ? null : await burst(`POST …/responses/, ${SUBMITTERS} users at once`, {
      concurrency: SUBMITTERS,
      rounds,
      request: (i) => ({
        url: `${url}/v1/checkins/${standup.row.uuid}/responses/`,
        init: { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': people[i % SUBMITTERS].key }, body: answer(addDays(today, -Math.floor(i / SUBMITTERS))) },
      }),
    });

    // History: 90 days × 50 users, read back by an admin (the 90-day window, newest first, 100 a page).
    const historyUsers = people.slice(0, HISTORY_USERS).map((p) => p.uuid);
    const historyQuestions = history.questions.map((q) => ({ uuid: q.uuid, question: q.question }));
    const baseRows = await seedHistory(db, { organizationUuid: org.uuid, checkinUuid: history.row.uuid, users: historyUsers, lastDay: today, fromDayOffset: 0, days: HISTORY_DAYS, questions: historyQuestions });
    const historyPath = `/v1/checkins/${history.row.uuid}/responses/?date_start=${addDays(today, -(HISTORY_DAYS - 1))}&date_end=${today}&page_size=100`;
    const HISTORY_CONCURRENCY = 20;
    const historyBaseline = await me(HISTORY_CONCURRENCY);
    const readHistory = (name: string) =>
      burst(name, { concurrency: HISTORY_CONCURRENCY, rounds: rounds * 2, request: () => ({ url: `${url}${historyPath}`, init: { headers: { 'x-api-key': adminKey } } }) });
    const historyRun = await readHistory(`GET 90-day history of ${HISTORY_USERS} users (${HISTORY_DAYS * HISTORY_USERS} rows), ${HISTORY_CONCURRENCY} at once`);

    // 10× the rows: nine more years… of the same people's history before the window (same check-in).
    const extraRows = await seedHistory(db, { organizationUuid: org.uuid, checkinUuid: history.row.uuid, users: historyUsers, lastDay: today, fromDayOffset: HISTORY_DAYS, days: HISTORY_DAYS * 9, questions: historyQuestions });
    const total = Number((await db('checkin_responses').count({ n: '*' }))[0].n);
    const largeRun = await readHistory(`… the same read with 10× rows (${baseRows + extraRows} in the check-in, ${total} in the table)`);
    // The page's plan (the count's is a range of the same index): walks (checkin_uuid, response_date, uuid) backwards, no sort.
    const plan = (await db.raw(
      'explain query plan select r.*, u.first_name from checkin_responses as r inner join users as u on u.uuid = r.user_uuid where r.checkin_uuid = ? and r.response_date >= ? and r.response_date <= ? order by r.response_date desc, r.uuid desc limit 100',
      [history.row.uuid, addDays(today, -(HISTORY_DAYS - 1)), today],
    )) as { detail: string }[];

    const result: CheckinBenchResult = {
      baseline: baseline ?? historyBaseline,
      historyBaseline,
      submit: submit ?? historyBaseline,
      history: historyRun,
      historyLarge: largeRun,
      submitRatio: submit && baseline ? Math.round((submit.reqPerSec / baseline.reqPerSec) * 1000) / 1000 : 0,
      historyRatio: Math.round((historyRun.reqPerSec / historyBaseline.reqPerSec) * 1000) / 1000,
      growthSlowdown: Math.round((largeRun.p50Ms / Math.max(historyRun.p50Ms, 0.001)) * 100) / 100,
      historyRows: { base: baseRows, large: baseRows + extraRows },
      queryPlan: plan.map((row) => row.detail),
    };

    const line = (m: Timed) =>
      `${m.name.padEnd(84)} ${String(m.reqPerSec).padStart(9)} req/s  p99 ${String(m.p99Ms).padStart(5)} ms  p50 ${String(m.p50Ms ?? '').padStart(4)} ms  ${m.requests} requests${m.non2xx ? `, ${m.non2xx} non-2xx/errors` : ''}`;
    log('check-ins benchmark');
    if (baseline && submit) {
      log(line(baseline));
      log(`${line(submit)}  ratio vs /v1/me/ ${result.submitRatio}`);
    }
    log(line(historyBaseline));
    log(`${line(historyRun)}  ratio vs /v1/me/ ${result.historyRatio}`);
    log(line(largeRun));
    log(`history with 10× rows: p50 ${historyRun.p50Ms} ms → ${largeRun.p50Ms} ms (×${result.growthSlowdown}; limit ×2) ${result.growthSlowdown <= 2 ? 'OK' : 'TOO SLOW'}`);
    log(`history query plan: ${result.queryPlan.join('; ')}`);
    return result;
  } finally {
    await close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const result = await benchCheckins();
  if (result.growthSlowdown > 2 || result.submit.non2xx > 0) process.exitCode = 1;
}
