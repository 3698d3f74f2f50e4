import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askDue } from '../src/features/checkin-runs/ask.ts';
import { localDate } from '../src/lib/dates.ts';
import { SAVE_ANSWER } from '../src/features/chat/google-chat/cards.ts';
import { EVENTS_PATH } from '../src/features/chat/google-chat/requests.ts';
import { REQUEST_PATHS } from '../src/features/chat/mattermost/requests.ts';
import { MESSAGES_PATH } from '../src/features/chat/microsoft-teams/requests.ts';
import { startTestApp } from './harness.ts';
import type { TestApp } from './harness.ts';
import { CERT_FILE, TEST_CA } from './receivers.ts';
import { serveProcess } from './serve-process.ts';
import { PROJECT, SERVICE_ACCOUNT, clickEvent, startGoogleChatStandIn } from './google-chat-stand-in.ts';
import { MM_COMMAND_TOKEN, MM_TOKEN, actionBody, dialogBody, dmChannel, startMattermostStandIn } from './mattermost-stand-in.ts';
import { APP_ID, APP_PASSWORD, TENANT, activity, installedInTeam, startTeamsStandIn } from './teams-stand-in.ts';
import { acknowledgedBeforeKill, killed } from './processes.ts';

const PEOPLE = 30;

/** What the test knows of one person: their Rollcall user, their prompt, and how the platform calls them. */
interface Person {
  uuid: string;
  email: string;
  prompt: string;
}

/** The day's check-in the people answer: its uuid, its one question, its day. */
interface Day {
  checkin: string;
  question: string;
  date: string;
}

/**
 * One platform as this test drives it: its stand-in (and the environment pointing at it), the connection, what a
 * person needs before answering (Mattermost: the dialog our button opened, with its signed state), and one
 * signed answer submission, true when the platform got the answer that means "saved".
 */
interface CrashPlatform {
  env: Record<string, string>;
  connect(t: TestApp, adminKey: string, emails: string[]): Promise<void>;
  /** Before answering (the prompts are delivered), on the server at `url`: what the person's submission needs. */
  open(url: string, person: Person): Promise<void>;
  submit(url: string, person: Person, day: Day): Promise<boolean>;
  close(): Promise<void>;
}

const post = async (url: string, headers: Record<string, string>, raw: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw });
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function mattermost(): Promise<CrashPlatform> {
  const mm = await startMattermostStandIn();
  const ids = new Map<string, string>();
  const states = new Map<string, string>();
  return {
    env: {},
    async connect(t, adminKey, emails) {
      for (const email of emails) ids.set(email, mm.addUser(email));
      await t.request('PATCH', '/v1/organization/', { key: adminKey, body: { platform: { kind: 'mattermost', bot_token: MM_TOKEN, server_url: mm.server, command_token: MM_COMMAND_TOKEN } } });
    },
    // "Answer" clicked on the prompt's post: Mattermost is asked to open the dialog, whose state we signed.
    async open(url, person) {
      const user = ids.get(person.email)!;
      const prompt = mm.calls('POST', '/posts').map((c) => c.json).find((j) => j.channel_id === dmChannel(user))!;
      const clicked = await post(`${url}${REQUEST_PATHS.actions}`, {}, actionBody(user, prompt.props.attachments[0].actions[0].integration.context));
      expect([clicked.status, await clicked.json()]).toEqual([200, {}]);
      states.set(person.uuid, mm.calls('POST', '/actions/dialogs/open').at(-1)!.json.dialog.state);
    },
    async submit(url, person, day) {
      const raw = dialogBody(ids.get(person.email)!, states.get(person.uuid)!, { [`q.${day.question}`]: `Answer of ${person.uuid}` });
      const res = await post(`${url}${REQUEST_PATHS.dialogs}`, {}, raw);
      return res.status === 200 && JSON.stringify(await res.json()) === '{}';
    },
    close: () => mm.close(),
  };
}

async function teams(): Promise<CrashPlatform> {
  const stand = await startTeamsStandIn();
  const members = new Map<string, ReturnType<typeof stand.addMember>>();
  const send = (url: string, body: Record<string, unknown>) => post(`${url}${MESSAGES_PATH}`, { authorization: `Bearer ${stand.token(nowSeconds())}` }, JSON.stringify(body));
  return {
    env: stand.env,
    async connect(t, adminKey, emails) {
      for (const email of emails) members.set(email, stand.addMember(email, email.split('@')[0]));
      await t.request('PATCH', '/v1/organization/', { key: adminKey, body: { platform: { kind: 'microsoft_teams', app_id: APP_ID, app_password: APP_PASSWORD, tenant_id: TENANT } } });
      // The bot installed in the team: Rollcall learns the Bot Connector's address and the roster.
      const installed = await send(t.url, installedInTeam(stand, members.get(emails[0])!));
      expect(installed.status).toBe(200);
    },
    async open() {},
    // "Save" on the prompt card: a new activity each time (Teams gives every activity its own id).
    async submit(url, person, day) {
      const res = await send(url, activity(stand, members.get(person.email)!, { value: { rollcall: 'rollcall_answer', p: person.prompt, [`q.${day.question}`]: `Answer of ${person.uuid}` }, text: undefined }));
      return res.status === 200 && JSON.stringify(await res.json()) === '{}';
    },
    close: () => stand.close(),
  };
}

async function googleChat(): Promise<CrashPlatform> {
  const chat = await startGoogleChatStandIn();
  const users = new Map<string, ReturnType<typeof chat.addUser>>();
  return {
    env: chat.env,
    async connect(t, adminKey, emails) {
      for (const email of emails) users.set(email, chat.addUser(email, email.split('@')[0]));
      await t.request('PATCH', '/v1/organization/', { key: adminKey, body: { platform: { kind: 'google_chat', service_account: SERVICE_ACCOUNT, project_number: PROJECT } } });
    },
    async open() {},
    // "Save" in the dialog: its parameters name the day and the prompt, its inputs the answers.
    async submit(url, person, day) {
      const event = clickEvent(users.get(person.email)!, SAVE_ANSWER, { c: day.checkin, d: day.date, p: person.prompt }, 'SUBMIT_DIALOG', { [`q.${day.question}`]: [`Answer of ${person.uuid}`] });
      const res = await post(`${url}${EVENTS_PATH}`, { authorization: `Bearer ${chat.token(nowSeconds())}` }, JSON.stringify(event));
      const answer = (await res.json()) as { actionResponse?: { dialogAction?: { actionStatus?: { statusCode?: string } } } };
      return res.status === 200 && answer.actionResponse?.dialogAction?.actionStatus?.statusCode === 'OK';
    },
    close: () => chat.close(),
  };
}

/**
 * Store first, then acknowledge, on the platforms whose stand-ins sign their requests with keys the test holds:
 * a `rollcall serve` process answering signed submissions (a Mattermost dialog with our signed state, a Teams
 * card's "Save" and a Google Chat dialog's, each with an RS256 token) is killed (SIGKILL) in the middle of them.
 * Every submission the platform got its acknowledgement for is saved, and its follow-up (the prompt turned
 * "Answered ✓") goes out after the restart. A SQLite file has one server process.
 */
describe.runIf(process.env.ROLLCALL_TEST_ENGINE !== 'postgres').each([
  { name: 'Mattermost', start: mattermost },
  { name: 'Microsoft Teams', start: teams },
  { name: 'Google Chat', start: googleChat },
])('Crash safety of $name answers: SIGKILL while submissions are answered', ({ start }) => {
  let t: TestApp;
  let platform: CrashPlatform;
  const children: ChildProcess[] = [];
  const people: Person[] = [];
  let day: Day;

  beforeAll(async () => {
    platform = await start();
    t = await startTestApp({ allowPrivateWebhooks: true }, platform.env, { ca: TEST_CA });
    t.clock.set(new Date().toISOString());
    const acme = await t.seedOrganization();
    const users = [];
    // p1x, p10x: the Mattermost stand-in makes ids of the e-mail's local part padded with zeros (p1 and p10 alike).
    for (let i = 0; i < PEOPLE; i++) users.push((await t.seedUser(acme.org.uuid, { email: `p${i}x@crash.test` })).user);
    await platform.connect(t, acme.adminKey, users.map((u) => u.email));
    const created = await t.request('POST', '/v1/checkins/create/', {
      key: acme.adminKey,
      body: { name: 'Daily', schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: '00:00', timezone: 'UTC' }, participants: { user_uuids: users.map((u) => u.uuid) }, questions: [{ question_type: 'text', question: 'Done?' }] },
    });
    day = { checkin: created.body.uuid, question: created.body.questions[0].uuid, date: localDate(t.clock.now(), 'UTC') };
    expect(await askDue(t.db, t.config, t.clock.now())).toBe(PEOPLE);
    await t.deps.delivery.runDue(); // the prompts are in each person's direct messages
    for (const user of users) {
      const person = { uuid: user.uuid, email: user.email, prompt: (await t.db('checkin_prompts').where({ user_uuid: user.uuid }).first('uuid'))!.uuid };
      await platform.open(t.url, person);
      people.push(person);
    }
  }, 180_000);
  afterAll(async () => {
    for (const child of children) await killed(child);
    await t?.close();
    await platform?.close();
  });

  const serve = async () => {
    const server = await serveProcess({
      NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', DATA_DIR: t.config.dataDir, DATABASE_URL: t.config.databaseUrl,
      ALLOW_PRIVATE_WEBHOOKS: 'true', NODE_EXTRA_CA_CERTS: CERT_FILE, DELIVERY_POLL_MS: '50', ...platform.env,
    });
    children.push(server.child);
    return server;
  };

  /** One person's answer submitted, signed now; false when the connection died with the process. */
  const submit = (url: string, person: Person) => platform.submit(url, person, day).catch(() => false);

  it('every submission acknowledged before the kill is saved, and its "Answered ✓" goes out after the restart', async () => {
    const first = await serve();
    const acknowledged = await acknowledgedBeforeKill(first.child, people, (person) => submit(first.url, person));
    expect(acknowledged.length).toBeGreaterThanOrEqual(20);
    // No upper bound: usually the kill cuts the last wave short, but on a quick machine every answer may be in
    // before it, and the restart below is tested either way (nothing acknowledged may be lost).

    // Saved: each acknowledged answer is in the database the process left, as it was sent.
    const saved = new Map((await t.db('checkin_responses').where({ checkin_uuid: day.checkin }).select('user_uuid', 'answers')).map((r) => [r.user_uuid, String(r.answers)]));
    expect(acknowledged.filter((p) => !saved.get(p.uuid)?.includes(`Answer of ${p.uuid}`))).toEqual([]);

    // The restarted server sends what was queued with each answer: the prompt's message turned "Answered ✓".
    const second = await serve();
    const delivered = async () => new Set((await t.db('deliveries').where({ kind: 'checkin.answered', status: 'delivered' }).select('subject_uuid')).map((r) => r.subject_uuid));
    let sent = await delivered();
    for (let i = 0; i < 300 && acknowledged.some((p) => !sent.has(p.prompt)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      sent = await delivered();
    }
    expect(acknowledged.filter((p) => !sent.has(p.prompt))).toEqual([]);
    // Those the kill cut off answer now (again, as a person would), once each.
    const rest = people.filter((p) => !acknowledged.includes(p));
    for (const person of rest) {
      await platform.open(second.url, person);
      expect(await submit(second.url, person)).toBe(true);
    }
    expect(Number((await t.db('checkin_responses').where({ checkin_uuid: day.checkin }).count({ n: '*' }))[0].n)).toBe(PEOPLE);
  }, 240_000);
});
