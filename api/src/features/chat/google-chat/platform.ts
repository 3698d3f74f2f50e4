import type { ChatPost, PlatformBody } from '../../chat-platform/platform.ts';
import { replyText } from '../../chat-platform/platform.ts';
import { postWebhook } from '../../chat-platform/platform-http.ts';
import { webhookPlatform } from '../../chat-platform/webhook-platform.ts';

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
export const googleChatPlatform = webhookPlatform({
  kind: 'google_chat',
  label: 'Google Chat',
  post: googleChatMessage,
  async send(step) {
    const { payload } = step;
    const u = new URL(step.connection.webhookUrl ?? '');
    u.searchParams.set('threadKey', payload.bot_message_id);
    u.searchParams.set('messageReplyOption', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
    const main = payload.progress.step === 0;
    const body = main ? withCardId(step.body, `rollcall-${payload.bot_message_id}`) : { text: replyText(payload) };
    const json = await postWebhook(step.http, 'POST', u.toString(), body, 'google chat');
    if (main) await step.refs.save({ message_id: String(json.name ?? '') });
    return { ...payload.progress, step: payload.progress.step + 1 };
  },
});
