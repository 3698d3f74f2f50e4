import { startTestApp } from '../../../../test/harness.ts';
import type { TestApp } from '../../../../test/harness.ts';
import { TEST_CA } from '../../../../test/receivers.ts';
import { seedPeople } from '../../../../test/people-fixtures.ts';
import type { People } from '../../../../test/people-fixtures.ts';
import {
  APPLICATION_ID, DISCORD_TOKEN, REPORT_CHANNEL, buttonData, commandData, discordKeys, dmChannel, interactionBody, modalData, signedHeaders, startDiscordStandIn,
} from '../../../../test/discord-stand-in.ts';
import type { DiscordKeys, DiscordStandIn } from '../../../../test/discord-stand-in.ts';
import { askDue } from '../../checkin-runs/ask.ts';
import { INTERACTIONS_PATH } from './requests.ts';

export const PUBLIC_URL = 'https://rollcall.example.com';
export const MIA = '1200000000000000001';
export const OTTO = '1200000000000000002';

/**
 * An app connected to a Discord stand-in as a bot (token, application id, the public half of a key pair made
 * here), Mia and Otto's Discord accounts linked (`/rollcall link`, then confirmed through the API as each of
 * them), and a two-question check-in (09:00 Berlin, report at 17:00 to a channel) that has asked them.
 */
export async function startDiscordApp(options: { questions?: unknown[]; config?: Record<string, unknown>; link?: boolean } = {}) {
  const discord = await startDiscordStandIn();
  const keys = discordKeys();
  const t = await startTestApp({ allowPrivateWebhooks: true }, { PUBLIC_URL, DISCORD_API_URL: discord.api }, { ca: TEST_CA });
  t.clock.set('2026-03-10T07:00:00.000Z');
  const p = await seedPeople(t);
  const connected = await t.request('PATCH', '/v1/organization/', {
    key: p.adminKey, body: { platform: { kind: 'discord', bot_token: DISCORD_TOKEN, application_id: APPLICATION_ID, public_key: keys.publicKeyHex } },
  });
  if (connected.status !== 200) throw new Error(`connect: ${connected.status} ${connected.text}`);
  const app = new DiscordApp(t, discord, keys, p);
  if (options.link !== false) {
    await app.link(MIA, p.member.key);
    await app.link(OTTO, p.other.key);
  }
  const created = await t.request('POST', '/v1/checkins/create/', {
    key: p.adminKey,
    body: {
      name: 'Daily', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'Europe/Berlin' }, participants: { user_uuids: [p.member.user.uuid, p.other.user.uuid] },
      questions: options.questions ?? [{ question_type: 'text', question: 'What did you do?' }, { question_type: 'text', question: 'Anything blocking you?', is_blocker: true, required: false }],
      report_channels: [REPORT_CHANNEL], time_for_report: '17:00',
    },
  });
  if (created.status !== 201) throw new Error(`create check-in: ${created.status} ${created.text}`);
  app.checkin = created.body;
  if (options.config) await t.request('PATCH', `/v1/checkins/${created.body.uuid}/config/`, { key: p.adminKey, body: options.config });
  t.clock.set('2026-03-10T08:00:00.000Z');
  await askDue(t.db, t.config, t.clock.now());
  await t.deps.delivery.runDue();
  return app;
}

export class DiscordApp {
  readonly t: TestApp;
  readonly discord: DiscordStandIn;
  readonly keys: DiscordKeys;
  readonly p: People;
  checkin!: { uuid: string; questions: { uuid: string; question: string }[] };
  constructor(t: TestApp, discord: DiscordStandIn, keys: DiscordKeys, p: People) {
    this.t = t;
    this.discord = discord;
    this.keys = keys;
    this.p = p;
  }

  /** Sends a signed interaction (now, by the test clock, unless `at` says when it was signed). */
  send(raw: string, options: { at?: number; headers?: Record<string, string>; example?: boolean } = {}) {
    const headers = { ...signedHeaders(this.keys, raw, options.at ?? this.t.clock.now().getTime() / 1000), ...options.headers };
    return this.t.request('POST', INTERACTIONS_PATH, { raw, headers, example: options.example });
  }

  command(user: string, sub: string, options: Record<string, unknown>[] = [], extra: { resolved?: Record<string, unknown>; example?: boolean } = {}) {
    return this.send(interactionBody(2, user, commandData(sub, options, extra.resolved)), { example: extra.example });
  }

  click(user: string, customId: string, options: { example?: boolean } = {}) {
    return this.send(interactionBody(3, user, buttonData(customId)), options);
  }

  submit(user: string, customId: string, values: Record<string, string>, options: { example?: boolean } = {}) {
    return this.send(interactionBody(5, user, modalData(customId, values)), options);
  }

  /** `/rollcall link` as the Discord user, then the link confirmed through the API as the person with `key`. */
  async link(user: string, key: string): Promise<void> {
    const asked = await this.command(user, 'link');
    const token = /\/app\/link\/([A-Za-z0-9]{32})/.exec(asked.body?.data?.content ?? '')?.[1];
    if (!token) throw new Error(`link: ${asked.status} ${asked.text}`);
    const confirmed = await this.t.request('POST', '/v1/me/chat-accounts/', { key, body: { token } });
    if (confirmed.status !== 201) throw new Error(`confirm link: ${confirmed.status} ${confirmed.text}`);
  }

  /** The messages posted to a Discord user's direct-message channel, in order. */
  messagesTo(user: string): Record<string, any>[] {
    return this.discord.received.filter((r) => r.method === 'POST' && r.url.endsWith(`/channels/${dmChannel(user)}/messages`)).map((r) => r.json);
  }

  /** The custom_id of the first button of the last message to a person. */
  buttonOf(user: string): string {
    return this.messagesTo(user).at(-1)!.components[0].components[0].custom_id;
  }

  async promptOf(userUuid: string): Promise<string> {
    const row = await this.t.db('checkin_prompts').where({ checkin_uuid: this.checkin.uuid, user_uuid: userUuid }).first('uuid');
    if (!row) throw new Error('no prompt');
    return row.uuid;
  }

  async answersState(): Promise<string> {
    const responses = await this.t.db('checkin_responses').select('uuid', 'answers', 'updated_at').orderBy('uuid');
    const drafts = await this.t.db('chat_answer_drafts').select('values').orderBy('user_uuid');
    const events = await this.t.db('organization_events').count({ n: '*' });
    return JSON.stringify({ responses, drafts, events });
  }

  async close(): Promise<void> {
    await this.t.close();
    await this.discord.close();
  }
}
