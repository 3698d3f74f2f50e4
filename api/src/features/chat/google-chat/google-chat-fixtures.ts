import { startTestApp } from '../../../../test/harness.ts';
import type { TestApp } from '../../../../test/harness.ts';
import { TEST_CA } from '../../../../test/receivers.ts';
import { seedPeople } from '../../../../test/people-fixtures.ts';
import type { People } from '../../../../test/people-fixtures.ts';
import { PROJECT, SERVICE_ACCOUNT, startGoogleChatStandIn } from '../../../../test/google-chat-stand-in.ts';
import type { ChatUser, GoogleChatStandIn } from '../../../../test/google-chat-stand-in.ts';
import { askDue } from '../../checkin-runs/ask.ts';
import { PUBLIC_URL, TWO_QUESTIONS } from '../slack/slack-fixtures.ts';
import { EVENTS_PATH } from './requests.ts';

/**
 * An app connected to a Google Chat stand-in as a Chat app, Mia and Otto Chat users, and a two-question check-in
 * (09:00 Berlin, report at 17:00 to the Stand-up space) that has asked them: their prompt cards are sent.
 */
export async function startGoogleChatApp(options: { questions?: unknown[] } = {}) {
  const chat = await startGoogleChatStandIn();
  const t = await startTestApp({ allowPrivateWebhooks: true }, { ...chat.env, PUBLIC_URL }, { ca: TEST_CA });
  t.clock.set('2026-03-10T07:00:00.000Z');
  const p = await seedPeople(t);
  const people = { mia: chat.addUser(p.member.user.email, 'Mia Member'), otto: chat.addUser(p.other.user.email, 'Otto Member') };
  const connected = await t.request('PATCH', '/v1/organization/', { key: p.adminKey, body: { platform: { kind: 'google_chat', service_account: SERVICE_ACCOUNT, project_number: PROJECT } } });
  if (connected.status !== 200) throw new Error(`connect: ${connected.status} ${connected.text}`);
  const created = await t.request('POST', '/v1/checkins/create/', {
    key: p.adminKey,
    body: {
      name: 'Daily', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'Europe/Berlin' }, participants: { user_uuids: [p.member.user.uuid, p.other.user.uuid] },
      questions: options.questions ?? TWO_QUESTIONS, report_channels: ['spaces/STANDUP'], time_for_report: '17:00',
    },
  });
  if (created.status !== 201) throw new Error(`create check-in: ${created.status} ${created.text}`);
  const app = new GoogleChatApp(t, chat, p, people, created.body);
  t.clock.set('2026-03-10T08:00:00.000Z');
  await askDue(t.db, t.config, t.clock.now());
  await t.deps.delivery.runDue();
  return app;
}

export class GoogleChatApp {
  readonly t: TestApp;
  readonly chat: GoogleChatStandIn;
  readonly p: People;
  readonly people: { mia: ChatUser; otto: ChatUser };
  readonly checkin: { uuid: string; questions: { uuid: string; question: string }[] };
  constructor(t: TestApp, chat: GoogleChatStandIn, p: People, people: GoogleChatApp['people'], checkin: GoogleChatApp['checkin']) {
    this.t = t;
    this.chat = chat;
    this.p = p;
    this.people = people;
    this.checkin = checkin;
  }

  /** An event sent as Google Chat sends it, with a token signed for the project (or as told). */
  send(body: Record<string, unknown> | string, options: { token?: string; example?: boolean } = {}) {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const token = options.token ?? this.chat.token(Math.floor(this.t.clock.now().getTime() / 1000));
    return this.t.request('POST', EVENTS_PATH, { raw, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, example: options.example });
  }

  async promptOf(userUuid: string): Promise<string> {
    const row = await this.t.db('checkin_prompts').where({ checkin_uuid: this.checkin.uuid, user_uuid: userUuid }).first('uuid');
    if (!row) throw new Error('no prompt');
    return row.uuid;
  }

  /** Messages posted to a space, in order. */
  posted(space: string) {
    return this.chat.calls('POST', new RegExp(`^/chat/v1/${space.replace('/', '\\/')}/messages$`));
  }

  async answersState(): Promise<string> {
    const responses = await this.t.db('checkin_responses').select('uuid', 'answers', 'updated_at').orderBy('uuid');
    const events = await this.t.db('organization_events').count({ n: '*' });
    return JSON.stringify({ responses, events });
  }

  async close(): Promise<void> {
    await this.t.close();
    await this.chat.close();
  }
}
