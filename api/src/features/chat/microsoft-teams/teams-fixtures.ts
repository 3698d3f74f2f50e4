import { startTestApp } from '../../../../test/harness.ts';
import type { TestApp } from '../../../../test/harness.ts';
import { TEST_CA } from '../../../../test/receivers.ts';
import { seedPeople } from '../../../../test/people-fixtures.ts';
import type { People } from '../../../../test/people-fixtures.ts';
import { APP_ID, APP_PASSWORD, TENANT, activity, installedInTeam, startTeamsStandIn } from '../../../../test/teams-stand-in.ts';
import type { TeamsMember, TeamsStandIn } from '../../../../test/teams-stand-in.ts';
import { askDue } from '../../checkin-runs/ask.ts';
import { PUBLIC_URL, TWO_QUESTIONS } from '../slack/slack-fixtures.ts';
import { MESSAGES_PATH } from './requests.ts';

export const STANDUP = '19:standup@thread.tacv2';

/**
 * An app connected to a Teams stand-in as a bot, installed in the team (so Rollcall knows the Bot Connector and
 * the roster), Mia and Otto members of it, and a two-question check-in (09:00 Berlin, report at 17:00 to the
 * Stand-up channel) that has asked them: their prompt cards are sent.
 */
export async function startTeamsApp(options: { askNow?: boolean; questions?: unknown[] } = {}) {
  const teams = await startTeamsStandIn();
  const t = await startTestApp({ allowPrivateWebhooks: true }, { ...teams.env, PUBLIC_URL }, { ca: TEST_CA });
  t.clock.set('2026-03-10T07:00:00.000Z');
  const p = await seedPeople(t);
  const mia = teams.addMember(p.member.user.email, 'Mia Member');
  const otto = teams.addMember(p.other.user.email, 'Otto Member');
  const connected = await t.request('PATCH', '/v1/organization/', { key: p.adminKey, body: { platform: { kind: 'microsoft_teams', app_id: APP_ID, app_password: APP_PASSWORD, tenant_id: TENANT } } });
  if (connected.status !== 200) throw new Error(`connect: ${connected.status} ${connected.text}`);
  const app = new TeamsApp(t, teams, p, { mia, otto });
  const installed = await app.send(installedInTeam(teams, mia));
  if (installed.status !== 200) throw new Error(`install: ${installed.status} ${installed.text}`);
  const created = await t.request('POST', '/v1/checkins/create/', {
    key: p.adminKey,
    body: {
      name: 'Daily', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'Europe/Berlin' }, participants: { user_uuids: [p.member.user.uuid, p.other.user.uuid] },
      questions: options.questions ?? TWO_QUESTIONS, report_channels: [STANDUP], time_for_report: '17:00',
    },
  });
  if (created.status !== 201) throw new Error(`create check-in: ${created.status} ${created.text}`);
  app.checkin = created.body;
  if (options.askNow !== false) await app.ask();
  return app;
}

export class TeamsApp {
  readonly t: TestApp;
  readonly teams: TeamsStandIn;
  readonly p: People;
  readonly people: { mia: TeamsMember; otto: TeamsMember };
  checkin!: { uuid: string; questions: { uuid: string; question: string }[] };
  constructor(t: TestApp, teams: TeamsStandIn, p: People, people: TeamsApp['people']) {
    this.t = t;
    this.teams = teams;
    this.p = p;
    this.people = people;
  }

  async ask(): Promise<void> {
    this.t.clock.set('2026-03-10T08:00:00.000Z');
    await askDue(this.t.db, this.t.config, this.t.clock.now());
    await this.t.deps.delivery.runDue();
  }

  /** An activity sent as Teams sends it, with a token signed for the bot (or as told). */
  send(body: Record<string, unknown> | string, options: { token?: string; example?: boolean } = {}) {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const token = options.token ?? this.teams.token(Math.floor(this.t.clock.now().getTime() / 1000));
    return this.t.request('POST', MESSAGES_PATH, { raw, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, example: options.example });
  }

  /** A "Save" on a prompt card: the inputs' values and the card's data. */
  submit(from: TeamsMember, value: Record<string, unknown>, options: { token?: string; tenant?: string; example?: boolean } = {}) {
    return this.send(activity(this.teams, from, { value, text: undefined }, { tenant: options.tenant }), options);
  }

  async promptOf(userUuid: string): Promise<string> {
    const row = await this.t.db('checkin_prompts').where({ checkin_uuid: this.checkin.uuid, user_uuid: userUuid }).first('uuid');
    if (!row) throw new Error('no prompt');
    return row.uuid;
  }

  /** The activities posted to a conversation, in order. */
  posted(conversation: string): Received[] {
    return this.teams.calls('POST', new RegExp(`^/connector/v3/conversations/${escape(encodeURIComponent(conversation))}/activities$`));
  }

  async answersState(): Promise<string> {
    const responses = await this.t.db('checkin_responses').select('uuid', 'answers', 'updated_at').orderBy('uuid');
    const events = await this.t.db('organization_events').count({ n: '*' });
    const conversations = await this.t.db('checkin_chat_conversations').select('prompt_uuid', 'position', 'answers').orderBy('prompt_uuid');
    return JSON.stringify({ responses, events, conversations });
  }

  async close(): Promise<void> {
    await this.t.close();
    await this.teams.close();
  }
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
type Received = TeamsStandIn['received'][number];
