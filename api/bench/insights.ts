/**
 * Insights benchmark (issue 36): GET /v1/checkins/{uuid}/insights/ over a year of a check-in of 200 people
 * (73,000 answered days, each with a mood, a choice and a yes/no answer, and the loop's 73,000 prompts), read by
 * an admin one request at a time: p50, p99 and the CPU time of this process per request (the server and the
 * client share it; the client's part is small next to the read). Target: p99 < 100 ms on SQLite and PostgreSQL.
 *
 * On SQLite; on PostgreSQL too when TEST_DATABASE_URL names a server (BENCH_INSIGHTS_ENGINES picks one). `BENCH_ONLY=insights npm run bench -w api`,
 * or alone: `node api/bench/insights.ts` (BENCH_INSIGHTS_REQUESTS, default 200).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sequentialClient, startInProcessApp } from './in-process-app.ts';
import type { Db } from '../src/db/connection.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { writeJson } from '../src/lib/json.ts';
import { addDays, localDate } from '../src/lib/dates.ts';
import { createOrganization } from '../src/features/organization/service.ts';
import { createUser } from '../src/features/users/repository.ts';
import { issueKey } from '../src/features/api-keys/service.ts';
import { lookupCredential } from '../src/auth/credentials.ts';
import { sha256Hex } from '../src/lib/secrets.ts';
import { createCheckin } from '../src/features/checkins/service.ts';
import type { TestEngine } from '../test/database-template.ts';

const PEOPLE = 200;
const DAYS = 365;

export interface InsightsBenchResult {
  engine: TestEngine;
  answers: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  cpuMsPerRequest: number;
  bytes: number;
}

/** A year of one check-in: a prompt and an answer per person and day (9 in 10 on time, 1 in 20 with a blocker). */
async function seedYear(db: Db, organizationUuid: string, checkinUuid: string, people: string[], questions: { uuid: string; question: string }[], today: string): Promise<number> {
  const [text, mood, where, blocked] = questions;
  let answers = 0;
  for (let d = 0; d < DAYS; d++) {
    const day = addDays(today, -d);
    const prompted = `${day}T09:00:00.000Z`;
    const prompts: Record<string, unknown>[] = [];
    const responses: Record<string, unknown>[] = [];
    people.forEach((user, i) => {
      const late = (i + d) % 10 === 0;
      prompts.push({
        uuid: uuidv7(), organization_uuid: organizationUuid, checkin_uuid: checkinUuid, user_uuid: user, run_date: day, timezone: 'UTC', prompted_at: prompted,
        reminders_sent: late ? 1 : 0, remind_until: `${day}T17:00:00.000Z`, message_id: `<bench.${d}.${i}@bench.test>`,
      });
      const answered = `${day}T${late ? '11' : '09'}:${String(10 + (i % 40)).padStart(2, '0')}:00.000Z`;
      responses.push({
        uuid: uuidv7(), organization_uuid: organizationUuid, checkin_uuid: checkinUuid, user_uuid: user, response_date: day,
        answers: writeJson([
          { uuid: text.uuid, index: 0, question: text.question, response: `Work of ${day}: reviewed pull requests and shipped a fix` },
          { uuid: mood.uuid, index: 1, question: mood.question, response: 1 + ((i * 7 + d) % 5) },
          { uuid: where.uuid, index: 2, question: where.question, response: (i + d) % 3 === 0 ? 'Office' : 'Home' },
          { uuid: blocked.uuid, index: 3, question: blocked.question, response: (i + d) % 20 === 0 },
        ]),
        response_completed: true, has_issue: (i + d) % 20 === 0, last_question_index: 3, created_at: answered, updated_at: answered,
      });
    });
    await db.transaction(async (trx) => {
      await trx('checkin_prompts').insert(prompts);
      for (let i = 0; i < responses.length; i += 50) await trx('checkin_responses').insert(responses.slice(i, i + 50));
    });
    answers += responses.length;
  }
  return answers;
}

export async function benchInsightsOn(engine: TestEngine, requests = Number(process.env.BENCH_INSIGHTS_REQUESTS ?? 200)): Promise<InsightsBenchResult> {
  const { db, url, close } = await startInProcessApp('insights', { engine });
  try {
    const now = new Date();
    const org = await createOrganization(db, { name: 'Bench', plan: 'enterprise' }, now);
    const admin = await createUser(db, { organizationUuid: org.uuid, email: 'admin@bench.test', firstName: 'Ada', lastName: 'Admin', role: 'admin' }, now);
    const adminKey = (await issueKey(db, { organizationUuid: org.uuid, ownerUuid: admin.uuid, kind: 'personal', name: 'bench' }, now)).secret;
    const people: string[] = [];
    for (let i = 0; i < PEOPLE; i++) people.push((await createUser(db, { organizationUuid: org.uuid, email: `person${i}@bench.test`, firstName: `Person${i}`, lastName: 'Bench' }, now)).uuid);
    const resolution = await lookupCredential(db, { kind: 'api_key', hash: sha256Hex(adminKey) }, now);
    if (!resolution.ok) throw new Error('bench admin key did not resolve');
    const created = await db.transaction((trx) =>
      createCheckin(trx, resolution.actor, {
        name: 'Stand-up', schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: '09:00', timezone: 'UTC' }, participants: { user_uuids: people },
        questions: [
          { question_type: 'text', question: 'What did you do?' },
          { question_type: 'numeric', question: 'How do you feel?' },
          { question_type: 'multiple_choice', question: 'Where do you work today?', options: ['Office', 'Home'] },
          { question_type: 'boolean', question: 'Blocked?', is_blocker: true },
        ],
      }, now),
    );
    // The mood question as issue 36's typed questions store it (extras.presentation).
    await db('checkin_questions').where({ uuid: created.questions[1].uuid }).update({ extras: writeJson({ presentation: 'mood' }) });
    const today = localDate(now, 'UTC');
    const answers = await seedYear(db, org.uuid, created.row.uuid, people, created.questions.map((q) => ({ uuid: q.uuid, question: q.question })), today);
    if (engine === 'postgres') await db.raw('vacuum analyze');
    else await db.raw('analyze');

    const client = sequentialClient(url, adminKey);
    const path = `/v1/checkins/${created.row.uuid}/insights/?from=${addDays(today, -(DAYS - 1))}&to=${today}`;
    try {
      let bytes = 0;
      for (let i = 0; i < 10; i++) {
        const warm = await client.send('GET', path);
        if (warm.status !== 200) throw new Error(`insights answered ${warm.status}: ${warm.text.slice(0, 200)}`);
        bytes = warm.text.length;
      }
      const latencies: number[] = [];
      const cpu = process.cpuUsage();
      for (let i = 0; i < requests; i++) latencies.push((await client.send('GET', path)).us / 1000);
      const used = process.cpuUsage(cpu);
      latencies.sort((a, b) => a - b);
      const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] * 10) / 10;
      return { engine, answers, requests, p50Ms: at(0.5), p99Ms: at(0.99), cpuMsPerRequest: Math.round(((used.user + used.system) / 1000 / requests) * 10) / 10, bytes };
    } finally {
      client.close();
    }
  } finally {
    await close();
  }
}

/** BENCH_INSIGHTS_ENGINES=sqlite or =postgres runs one engine (default: SQLite, and PostgreSQL with TEST_DATABASE_URL). */
export async function benchInsights(options: { print?: boolean } = {}): Promise<InsightsBenchResult[]> {
  const engines = (process.env.BENCH_INSIGHTS_ENGINES?.split(',') ?? ['sqlite', 'postgres']) as TestEngine[];
  const results: InsightsBenchResult[] = [];
  if (engines.includes('sqlite')) results.push(await benchInsightsOn('sqlite'));
  if (engines.includes('postgres') && process.env.TEST_DATABASE_URL) results.push(await benchInsightsOn('postgres'));
  if (options.print) {
    for (const r of results) {
      const verdict = r.p99Ms < 100 ? 'OK' : 'TOO SLOW';
      console.log(`insights of ${PEOPLE} people × ${DAYS} days (${r.answers} answers), ${r.engine.padEnd(8)} ${r.requests} requests one at a time: p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms (limit 100) ${verdict}; CPU ${r.cpuMsPerRequest} ms a request; ${r.bytes} bytes`);
    }
  }
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const results = await benchInsights({ print: true });
  if (results.some((r) => r.p99Ms >= 100)) process.exitCode = 1;
}
