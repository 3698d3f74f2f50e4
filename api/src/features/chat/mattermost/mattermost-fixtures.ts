import { startTestApp } from '../../../../test/harness.ts';
import type { TestApp } from '../../../../test/harness.ts';
import { TEST_CA } from '../../../../test/receivers.ts';
import { seedPeople } from '../../../../test/people-fixtures.ts';
import type { People } from '../../../../test/people-fixtures.ts';
import { MM_COMMAND_TOKEN, MM_TOKEN, actionBody, dmChannel, commandRequest, dialogBody, startMattermostStandIn } from '../../../../test/mattermost-stand-in.ts';
import type { MattermostStandIn } from '../../../../test/mattermost-stand-in.ts';
import { askDue } from '../../checkin-runs/ask.ts';
import { REQUEST_PATHS } from './requests.ts';

export const PUBLIC_URL = 'https://rollcall.example.com';

/**
 * An app connected to a Mattermost stand-in (bot token, server URL, the /rollcall command's token), Mia and Otto
 * known to it by e-mail, and a two-question check-in (09:00 Berlin, report at 17:00 to a channel) that has asked
 * them: their prompt direct messages are posted.
 */
export async function startMattermostApp(options: { questions?: unknown[]; config?: Record<string, unknown> } = {}) {
  const mm = await startMattermostStandIn();
  const t = await startTestApp({ allowPrivateWebhooks: true }, { PUBLIC_URL }, { ca: TEST_CA });
  t.clock.set('2026-03-10T07:00:00.000Z');
  const p = await seedPeople(t);
  const ids = { mia: mm.addUser(p.member.user.email), otto: mm.addUser(p.other.user.email) };
  const connected = await t.request('PATCH', '/v1/organization/', {
    key: p.adminKey, body: { platform: { kind: 'mattermost', bot_token: MM_TOKEN, server_url: mm.server, command_token: MM_COMMAND_TOKEN } },
  });
  if (connected.status !== 200) throw new Error(`connect: ${connected.status} ${connected.text}`);
  const created = await t.request('POST', '/v1/checkins/create/', {
    key: p.adminKey,
    body: {
      name: 'Daily', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'Europe/Berlin' }, participants: { user_uuids: [p.member.user.uuid, p.other.user.uuid] },
      questions: options.questions ?? [{ question_type: 'text', question: 'What did you do?' }, { question_type: 'text', question: 'Anything blocking you?', is_blocker: true, required: false }],
      report_channels: ['townsquare0000000000000000'], time_for_report: '17:00',
    },
  });
  if (created.status !== 201) throw new Error(`create check-in: ${created.status} ${created.text}`);
  const app = new MattermostApp(t, mm, p, ids, created.body);
  if (options.config) await t.request('PATCH', `/v1/checkins/${created.body.uuid}/config/`, { key: p.adminKey, body: options.config });
  t.clock.set('2026-03-10T08:00:00.000Z');
  await askDue(t.db, t.config, t.clock.now());
  await t.deps.delivery.runDue();
  return app;
}

type Button = { id: string; name: string; integration: { url: string; context: Record<string, string> } };

export class MattermostApp {
  readonly t: TestApp;
  readonly mm: MattermostStandIn;
  readonly p: People;
  readonly ids: { mia: string; otto: string };
  readonly checkin: { uuid: string; questions: { uuid: string; question: string }[] };
  constructor(t: TestApp, mm: MattermostStandIn, p: People, ids: MattermostApp['ids'], checkin: MattermostApp['checkin']) {
    this.t = t;
    this.mm = mm;
    this.p = p;
    this.ids = ids;
    this.checkin = checkin;
  }

  /** The posts made to a person's direct channel, in order. */
  postsTo(userId: string): Record<string, any>[] {
    return this.mm.calls('POST', '/posts').map((c) => c.json).filter((j) => j.channel_id === dmChannel(userId));
  }

  /** The "Answer" (or "Edit") button of the last post to a person. */
  buttonOf(userId: string): Button {
    const post = this.postsTo(userId).at(-1)!;
    return post.props.attachments[0].actions[0];
  }

  click(user: string, context: unknown, options: { trigger?: string } = {}) {
    return this.t.request('POST', REQUEST_PATHS.actions, { raw: actionBody(user, context, options), headers: { 'content-type': 'application/json' } });
  }

  /** The last dialog Mattermost was asked to open. */
  lastDialog(): { trigger_id: string; url: string; dialog: { state: string; title: string; elements: any[]; introduction_text: string } } {
    const opened = this.mm.calls('POST', '/actions/dialogs/open');
    if (opened.length === 0) throw new Error('no dialog opened');
    return opened.at(-1)!.json;
  }

  submit(user: string, state: string, submission: Record<string, unknown>, options: { example?: boolean; cancelled?: boolean } = {}) {
    return this.t.request('POST', REQUEST_PATHS.dialogs, { raw: dialogBody(user, state, submission, options), headers: { 'content-type': 'application/json' }, example: options.example });
  }

  command(user: string, text: string, options: { team?: string; token?: string; example?: boolean } = {}) {
    const { raw, headers } = commandRequest(user, text, options);
    return this.t.request('POST', REQUEST_PATHS.commands, { raw, headers, example: options.example });
  }

  async promptOf(userUuid: string): Promise<string> {
    const row = await this.t.db('checkin_prompts').where({ checkin_uuid: this.checkin.uuid, user_uuid: userUuid }).first('uuid');
    if (!row) throw new Error('no prompt');
    return row.uuid;
  }

  async answersState(): Promise<string> {
    const responses = await this.t.db('checkin_responses').select('uuid', 'answers', 'updated_at').orderBy('uuid');
    const events = await this.t.db('organization_events').count({ n: '*' });
    return JSON.stringify({ responses, events });
  }

  async close(): Promise<void> {
    await this.t.close();
    await this.mm.close();
  }
}
