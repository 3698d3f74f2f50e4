import type { ChatPlatform, ChatPost, PlatformBody, ReportChannel, SendProgress, SendStep } from '../../chat-platform/platform.ts';
import { replyText } from '../../chat-platform/platform.ts';
import { postWebhook } from '../../chat-platform/platform-http.ts';
import { webhookPlatform } from '../../chat-platform/webhook-platform.ts';
import { DiscordApi } from './api.ts';
import { postBody, promptBody, reportBody } from './messages.ts';
import { INTERACTIONS_PATH } from './requests.ts';

/** Discord execute-webhook body: `content` (≤ 2000 characters); link buttons become Markdown links; no pings. */
export function discordMessage(post: ChatPost): PlatformBody {
  const links = post.buttons.map((b) => `[${b.text}](${b.url})`).join(' · ');
  const content = [post.text, links].filter(Boolean).join('\n\n').slice(0, 2000);
  return { content, allowed_mentions: { parse: [] }, ...(post.imageUrl ? { embeds: [{ image: { url: post.imageUrl } }] } : {}) };
}

const withWait = (url: string): string => {
  const u = new URL(url);
  u.searchParams.set('wait', 'true');
  return u.toString();
};

/** Discord incoming webhook: posts with ?wait=true (the answer names the message), edits by message id. */
const webhook = webhookPlatform({
  kind: 'discord',
  label: 'Discord',
  post: discordMessage,
  async send(step) {
    const { payload } = step;
    const url = step.connection.webhookUrl ?? '';
    const progress = { ...payload.progress };
    if (progress.step === 0) {
      // A webhook shows every card as its text (a bot's cards need the bot).
      const body = payload.message ? discordMessage({ text: payload.post.text, buttons: [], imageUrl: null }) : discordMessage(payload.post);
      const ref = payload.edit ? await step.refs.get() : null;
      const json = ref?.message_id
        ? await postWebhook(step.http, 'PATCH', `${url.replace(/\/+$/, '')}/messages/${ref.message_id}`, body, 'discord edit')
        : await postWebhook(step.http, 'POST', withWait(url), body, 'discord');
      progress.message_id = String(json.id ?? ref?.message_id ?? '');
      await step.refs.save({ message_id: progress.message_id });
    } else {
      await postWebhook(step.http, 'POST', withWait(url), discordMessage({ text: replyText(payload), buttons: [], imageUrl: null }), 'discord');
    }
    return { ...progress, step: progress.step + 1 };
  },
});

/**
 * A bot's delivery step, through Discord's REST API: a person's message goes to their direct-message channel with
 * the bot (their linked account's), a channel's to the channel; an edit changes the message sent before; thread
 * replies answer it. A report longer than one message is several, posted one by one (`progress.part`), so a retry
 * posts none twice.
 */
async function sendAsBot(step: SendStep): Promise<SendProgress> {
  const { payload } = step;
  const discord = new DiscordApi(step.http, step.config.chat.discordApiUrl, step.connection.botToken ?? '');
  const progress = { ...payload.progress };
  const target = payload.target;
  if (!progress.channel) {
    progress.channel = target.type === 'user' ? await discord.dmChannel(await step.personId(target.email)) : target.type === 'channel' ? target.id : '';
  }
  if (progress.step > 0) {
    await discord.post(progress.channel, { content: replyText(payload).slice(0, 2000), allowed_mentions: { parse: [] }, ...(progress.message_id ? { message_reference: { message_id: progress.message_id, fail_if_not_exists: false } } : {}) });
    return { ...progress, step: progress.step + 1 };
  }
  const messages = Array.isArray(step.body.messages) ? (step.body.messages as Record<string, unknown>[]) : [step.body];
  const part = progress.part ?? 0;
  const ref = payload.edit && part === 0 ? await step.refs.get() : null;
  if (ref?.message_id && ref.channel) {
    await discord.edit(ref.channel, ref.message_id, messages[0]);
    progress.message_id = ref.message_id;
  } else {
    const id = await discord.post(progress.channel, messages[part] ?? messages[0]);
    if (part === 0) {
      progress.message_id = id;
      await step.refs.save({ channel: progress.channel, message_id: id });
    }
  }
  if (!ref?.message_id && part + 1 < messages.length) return { ...progress, part: part + 1 };
  const { part: _done, ...rest } = progress;
  return { ...rest, step: 1 };
}

const isBot = (step: { connection: { appId: string | null } }) => step.connection.appId !== null;

/**
 * Discord, two ways. Connected as a bot (token, application id, public key: docs/chat.md), each person who linked
 * their Discord account (`/rollcall link`) gets their prompt and reminders by direct message and answers in a form
 * (requests.ts, answers.ts); reports go to the servers' channels. Connected with an incoming webhook, it posts text
 * to that one channel.
 */
export const discordPlatform: ChatPlatform = {
  ...webhook,
  directMessages: true,
  ask: (prompt) => promptBody(prompt, false),
  remind: (prompt) => promptBody(prompt, true),
  report: (report) => reportBody(report),
  post: postBody,
  /** A Discord bot cannot look anyone up by e-mail: people link their account (chat-platform/people.ts reads the links). */
  findPerson: async () => null,
  send: (step) => (isBot(step) ? sendAsBot(step) : webhook.send(step)),
  async channels(access): Promise<ReportChannel[]> {
    if (!isBot(access)) return webhook.channels(access);
    const channels = await new DiscordApi(access.http, access.config.chat.discordApiUrl, access.connection.botToken ?? '').textChannels();
    return channels.map((c) => ({ id: c.id, name: `${c.guild} › #${c.name}`, platform: 'discord', type: 'public' }));
  },
  receive: {
    requestUrls: (base) => [{ name: 'General Information › Interactions Endpoint URL', url: `${base}${INTERACTIONS_PATH}` }],
    problem: (connection) =>
      isBot({ connection }) ? null : 'Connected with an incoming webhook: it shows reports in its channel, and people answer by e-mail or on the web. Connect the Discord bot (token, application ID, public key) for people to answer in Discord.',
  },
};
