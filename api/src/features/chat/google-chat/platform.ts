import type { ChatPlatform, ChatPost, PlatformBody, ReportChannel, SendProgress, SendStep } from '../../chat-platform/platform.ts';
import { replyText } from '../../chat-platform/platform.ts';
import { postWebhook } from '../../chat-platform/platform-http.ts';
import { webhookPlatform } from '../../chat-platform/webhook-platform.ts';
import { GoogleChatApi } from './api.ts';
import { promptMessage, reportMessage } from './cards.ts';
import { EVENTS_PATH } from './requests.ts';

/** Google Chat incoming webhook: `text`, plus a cardsV2 card for the image and buttons. */
export function googleChatMessage(post: ChatPost, cardId = 'rollcall'): PlatformBody {
  if (!post.imageUrl && post.buttons.length === 0) return { text: post.text };
  const widgets: Record<string, unknown>[] = [];
  if (post.imageUrl) widgets.push({ image: { imageUrl: post.imageUrl } });
  if (post.buttons.length) widgets.push({ buttonList: { buttons: post.buttons.map((b) => ({ text: b.text, onClick: { openLink: { url: b.url } } })) } });
  return { text: post.text, cardsV2: [{ cardId, card: { sections: [{ widgets }] } }] };
}

/** The message's card named after it (Google Chat wants each card of a space to have its own id). */
const withCardId = (body: PlatformBody, cardId: string): PlatformBody =>
  Array.isArray(body.cardsV2) ? { ...body, cardsV2: (body.cardsV2 as { card: unknown }[]).map((c) => ({ ...c, cardId })) } : body;

/** Replies share the message's thread key; incoming webhooks cannot edit, so an edit is a new post in the thread. */
const webhook = webhookPlatform({
  kind: 'google_chat',
  label: 'Google Chat',
  post: googleChatMessage,
  async send(step) {
    const { payload } = step;
    const u = new URL(step.connection.webhookUrl ?? '');
    u.searchParams.set('threadKey', payload.bot_message_id);
    u.searchParams.set('messageReplyOption', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
    const main = payload.progress.step === 0;
    // A webhook connection shows every card as its text (a Chat app's cards need the app).
    const body = main ? withCardId(googleChatMessage(payload.post), `rollcall-${payload.bot_message_id}`) : { text: replyText(payload) };
    const json = await postWebhook(step.http, 'POST', u.toString(), body, 'google chat');
    if (main) await step.refs.save({ message_id: String(json.name ?? '') });
    return { ...payload.progress, step: payload.progress.step + 1 };
  },
});

/**
 * A Chat app's delivery step, through the Chat API as its service account: a person's message goes to their
 * direct-message space with the app (found by e-mail), a channel's to the space; an edit updates the message sent
 * before; thread replies share the message's thread key.
 */
async function sendAsApp(step: SendStep): Promise<SendProgress> {
  const { payload } = step;
  const chat = new GoogleChatApi(step.http, step.config, step.connection);
  const progress = { ...payload.progress };
  const target = payload.target;
  if (!progress.channel) progress.channel = target.type === 'user' ? await step.personId(target.email) : target.type === 'channel' ? target.id : '';
  if (progress.step === 0) {
    const ref = payload.edit ? await step.refs.get() : null;
    const body = withCardId(step.body, `rollcall-${payload.bot_message_id}`);
    if (ref?.message_id) {
      await chat.update(ref.message_id, body);
      progress.message_id = ref.message_id;
    } else {
      progress.message_id = await chat.post(progress.channel, body, payload.thread.length ? payload.bot_message_id : undefined);
      await step.refs.save({ channel: progress.channel, message_id: progress.message_id });
    }
  } else {
    await chat.post(progress.channel, { text: replyText(payload) }, payload.bot_message_id);
  }
  return { ...progress, step: progress.step + 1 };
}

const isApp = (step: { connection: { serviceAccount: string | null } }) => step.connection.serviceAccount !== null;

/**
 * Google Chat, two ways. Connected as a Chat app (its service account and project number: docs/chat.md), each
 * person gets their prompt as a card in their direct message with the app, whose "Answer" opens a dialog that
 * saves (requests.ts, events.ts), and reports go to the spaces the app is in. Connected with an incoming webhook,
 * it posts text to that one space.
 */
export const googleChatPlatform: ChatPlatform = {
  ...webhook,
  directMessages: true,
  ask: (prompt, text) => promptMessage(prompt, text, false),
  remind: (prompt, text) => promptMessage(prompt, text, true),
  report: reportMessage,
  /** A person's direct-message space with the app, by e-mail. */
  findPerson: ({ connection, http, config }, email) => (connection.serviceAccount ? new GoogleChatApi(http, config, connection).directMessageSpace(email) : Promise.resolve(null)),
  send: (step) => (isApp(step) ? sendAsApp(step) : webhook.send(step)),
  async channels(access): Promise<ReportChannel[]> {
    if (!access.connection.serviceAccount) return webhook.channels(access);
    const spaces = await new GoogleChatApi(access.http, access.config, access.connection).spaces();
    return spaces.map((s) => ({ id: s.name, name: s.displayName, platform: 'google_chat', type: 'public' }));
  },
  receive: {
    requestUrls: (base) => [{ name: 'Chat API › Configuration › Connection settings › HTTP endpoint URL', url: `${base}${EVENTS_PATH}` }],
    problem: (connection) =>
      connection.serviceAccount ? null : 'Connected with an incoming webhook: it shows reports in its space, and people answer by e-mail or on the web. Connect the Chat app (service account, project number) for people to answer in Google Chat.',
  },
};
