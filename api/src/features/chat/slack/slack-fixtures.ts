import { startTestApp } from '../../../../test/harness.ts';
import type { TestApp } from '../../../../test/harness.ts';
import { TEST_CA } from '../../../../test/receivers.ts';
import { seedPeople } from '../../../../test/people-fixtures.ts';
import type { People } from '../../../../test/people-fixtures.ts';
import { SIGNING_SECRET, SLACK_TOKEN, slackHeaders, startSlackStandIn } from '../../../../test/slack-stand-in.ts';
import type { SlackStandIn } from '../../../../test/slack-stand-in.ts';
import { askDue } from '../../checkin-runs/ask.ts';
import { REQUEST_PATHS } from './requests.ts';
import type { RequestKind } from './requests.ts';

export const PUBLIC_URL = 'https://rollcall.example.com';

/** Two questions: what was done (required) and blockers (optional, a blocker question). */
export const TWO_QUESTIONS = [
  { question_type: 'text', question: 'What did you do?' },
  { question_type: 'text', question: 'Anything blocking you?', is_blocker: true, required: false },
];

/**
 * An app connected to a Slack stand-in with a signing secret, Mia and Otto known to Slack, and a two-question
 * check-in (09:00 Berlin, report at 17:00) that has asked them: their prompt direct messages are sent.
 */
export async function startSlackApp(options: { askNow?: boolean; questions?: unknown[] } = {}) {
  const slack = await startSlackStandIn();
  const t = await startTestApp({ allowPrivateWebhooks: true }, { SLACK_API_URL: slack.api, PUBLIC_URL }, { ca: TEST_CA });
  t.clock.set('2026-03-10T07:00:00.000Z');
  const p = await seedPeople(t);
  const mia = slack.addUser(p.member.user.email);
  const otto = slack.addUser(p.other.user.email);
  const connected = await t.request('PATCH', '/v1/organization/', { key: p.adminKey, body: { platform: { kind: 'slack', bot_token: SLACK_TOKEN, signing_secret: SIGNING_SECRET } } });
  if (connected.status !== 200) throw new Error(`connect: ${connected.status} ${connected.text}`);
  const created = await t.request('POST', '/v1/checkins/create/', {
    key: p.adminKey,
    body: {
      name: 'Daily', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'Europe/Berlin' }, participants: { user_uuids: [p.member.user.uuid, p.other.user.uuid] },
      questions: options.questions ?? TWO_QUESTIONS, report_channels: ['C1'], time_for_report: '17:00',
    },
  });
  if (created.status !== 201) throw new Error(`create check-in: ${created.status} ${created.text}`);
  const checkin = created.body as { uuid: string; questions: { uuid: string; question: string }[] };
  const app = new SlackApp(t, slack, p, { mia, otto }, checkin);
  if (options.askNow !== false) await app.ask();
  return app;
}

export class SlackApp {
  readonly t: TestApp;
  readonly slack: SlackStandIn;
  readonly p: People;
  readonly ids: { mia: string; otto: string };
  readonly checkin: { uuid: string; questions: { uuid: string; question: string }[] };
  constructor(t: TestApp, slack: SlackStandIn, p: People, ids: { mia: string; otto: string }, checkin: SlackApp['checkin']) {
    this.t = t;
    this.slack = slack;
    this.p = p;
    this.ids = ids;
    this.checkin = checkin;
  }

  /** 09:00 in Berlin: the prompts are asked and their direct messages sent. */
  async ask(): Promise<void> {
    this.t.clock.set('2026-03-10T08:00:00.000Z');
    await askDue(this.t.db, this.t.config, this.t.clock.now());
    await this.t.deps.delivery.runDue();
  }

  /** A request signed as Slack signs it (now, with the app's signing secret unless told otherwise). */
  send(kind: RequestKind, raw: string, options: { at?: number; secret?: string; example?: boolean } = {}) {
    const at = options.at ?? this.t.clock.now().getTime() / 1000;
    const headers = slackHeaders(raw, at, options.secret, kind === 'events' ? 'application/json' : 'application/x-www-form-urlencoded');
    return this.t.request('POST', REQUEST_PATHS[kind], { raw, headers, example: options.example });
  }

  /** The uuid of a person's prompt of the day. */
  async promptOf(userUuid: string): Promise<string> {
    const row = await this.t.db('checkin_prompts').where({ checkin_uuid: this.checkin.uuid, user_uuid: userUuid }).first('uuid');
    if (!row) throw new Error('no prompt');
    return row.uuid;
  }

  /** The last view Slack was asked to open. */
  lastModal(): { trigger_id: string; view: { private_metadata: string; blocks: any[]; title: any; callback_id?: string } } {
    const opened = this.slack.calls('views.open');
    if (opened.length === 0) throw new Error('no views.open');
    return opened.at(-1)!.json;
  }

  /** Rows of the tables answering writes to, to compare around a refusal. */
  async answersState(): Promise<string> {
    const responses = await this.t.db('checkin_responses').select('uuid', 'answers', 'updated_at').orderBy('uuid');
    const events = await this.t.db('organization_events').count({ n: '*' });
    const conversations = await this.t.db('checkin_chat_conversations').select('prompt_uuid', 'position', 'answers').orderBy('prompt_uuid');
    const kudos = await this.t.db('kudos').count({ n: '*' });
    return JSON.stringify({ responses, events, conversations, kudos });
  }

  async close(): Promise<void> {
    await this.t.close();
    await this.slack.close();
  }
}
