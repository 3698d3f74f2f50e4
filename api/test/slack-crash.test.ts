import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askDue } from '../src/features/checkin-runs/ask.ts';
import { localDate } from '../src/lib/dates.ts';
import { startTestApp } from './harness.ts';
import type { TestApp } from './harness.ts';
import { CERT_FILE, TEST_CA } from './receivers.ts';
import { serveProcess } from './serve-process.ts';
import { SIGNING_SECRET, SLACK_TOKEN, interactionBody, slackHeaders, startSlackStandIn, submitPayload, textValue } from './slack-stand-in.ts';
import type { SlackStandIn } from './slack-stand-in.ts';
import { acknowledgedBeforeKill, killed } from './processes.ts';

const PEOPLE = 60;

/**
 * Store first, then acknowledge: a `rollcall serve` process answering Slack modal submissions is killed (SIGKILL)
 * in the middle of them. Every submission Slack got its 200 for is saved, and its follow-up message (the prompt
 * turned "Answered ✓") goes out after the restart. A SQLite file has one server process.
 */
describe.runIf(process.env.ROLLCALL_TEST_ENGINE !== 'postgres')('Crash safety of Slack answers: SIGKILL while modal submissions are answered', () => {
  let t: TestApp;
  let slack: SlackStandIn;
  const children: ChildProcess[] = [];
  const people: { uuid: string; slack: string; prompt: string }[] = [];
  let checkin: { uuid: string; questions: { uuid: string }[] };
  let date: string;

  beforeAll(async () => {
    slack = await startSlackStandIn();
    t = await startTestApp({ allowPrivateWebhooks: true }, { SLACK_API_URL: slack.api }, { ca: TEST_CA });
    t.clock.set(new Date().toISOString());
    date = localDate(t.clock.now(), 'UTC');
    const acme = await t.seedOrganization();
    await t.request('PATCH', '/v1/organization/', { key: acme.adminKey, body: { platform: { kind: 'slack', bot_token: SLACK_TOKEN, signing_secret: SIGNING_SECRET } } });
    const users = [];
    for (let i = 0; i < PEOPLE; i++) users.push((await t.seedUser(acme.org.uuid, { email: `p${i}@crash.test` })).user);
    const created = await t.request('POST', '/v1/checkins/create/', {
      key: acme.adminKey,
      body: { name: 'Daily', schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: '00:00', timezone: 'UTC' }, participants: { user_uuids: users.map((u) => u.uuid) }, questions: [{ question_type: 'text', question: 'Done?' }] },
    });
    checkin = created.body;
    expect(await askDue(t.db, t.config, t.clock.now())).toBe(PEOPLE);
    for (const user of users) {
      const prompt = (await t.db('checkin_prompts').where({ user_uuid: user.uuid }).first('uuid'))!.uuid;
      people.push({ uuid: user.uuid, slack: slack.addUser(user.email), prompt });
    }
  });
  afterAll(async () => {
    for (const child of children) await killed(child);
    await t.close();
    await slack.close();
  });

  const serve = async () => {
    const server = await serveProcess({
      NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', DATA_DIR: t.config.dataDir, DATABASE_URL: t.config.databaseUrl,
      SLACK_API_URL: slack.api, ALLOW_PRIVATE_WEBHOOKS: 'true', NODE_EXTRA_CA_CERTS: CERT_FILE, DELIVERY_POLL_MS: '50',
    });
    children.push(server.child);
    return server;
  };

  /** One person's modal submitted, signed now; true when Slack would have had its 200 and "clear". */
  async function submit(url: string, person: (typeof people)[number]): Promise<boolean> {
    const metadata = JSON.stringify({ c: checkin.uuid, d: date, p: person.prompt });
    const raw = interactionBody(submitPayload(person.slack, { private_metadata: metadata }, { [`q.${checkin.questions[0].uuid}`]: textValue(`Answer of ${person.uuid}`) }));
    try {
      const res = await fetch(`${url}/v1/integrations/slack/interactions/`, { method: 'POST', headers: slackHeaders(raw, Date.now() / 1000), body: raw });
      return res.status === 200 && ((await res.json()) as { response_action?: string }).response_action === 'clear';
    } catch {
      return false; // the connection died with the process: not acknowledged
    }
  }

  it('every submission acknowledged before the kill is saved, and its "Answered ✓" goes to Slack after the restart', async () => {
    const first = await serve();
    const acknowledged = await acknowledgedBeforeKill(first.child, people, (person) => submit(first.url, person));
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    // No upper bound: usually the kill cuts the last wave short, but on a quick machine every answer may be in
    // before it, and the restart below is tested either way (nothing acknowledged may be lost).

    // Saved: each acknowledged answer is in the database the process left.
    const saved = new Set((await t.db('checkin_responses').where({ checkin_uuid: checkin.uuid }).select('user_uuid')).map((r) => r.user_uuid));
    expect(acknowledged.filter((p) => !saved.has(p.uuid))).toEqual([]);

    // The restarted server sends what was queued with each answer: the prompt's message turned "Answered ✓".
    const second = await serve();
    const updated = () => new Set(slack.calls('chat.update').map((c) => c.json.channel));
    for (let i = 0; i < 300 && acknowledged.some((p) => !updated().has(`D${p.slack}`)); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(acknowledged.filter((p) => !updated().has(`D${p.slack}`))).toEqual([]);
    // Those the kill cut off answer now, once.
    const rest = people.filter((p) => !acknowledged.includes(p));
    for (const person of rest) expect(await submit(second.url, person)).toBe(true);
    expect(Number((await t.db('checkin_responses').where({ checkin_uuid: checkin.uuid }).count({ n: '*' }))[0].n)).toBe(PEOPLE);
  }, 180_000);
});
