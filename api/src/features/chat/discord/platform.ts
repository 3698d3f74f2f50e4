import type { ChatPost, PlatformBody } from '../../chat-platform/platform.ts';
import { replyText } from '../../chat-platform/platform.ts';
import { postWebhook } from '../../chat-platform/platform-http.ts';
import { webhookPlatform } from '../../chat-platform/webhook-platform.ts';

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
export const discordPlatform = webhookPlatform({
  kind: 'discord',
  label: 'Discord',
  post: discordMessage,
  async send(step) {
    const { payload } = step;
    const url = step.connection.webhookUrl ?? '';
    const progress = { ...payload.progress };
    if (progress.step === 0) {
      const ref = payload.edit ? await step.refs.get() : null;
      const json = ref?.message_id
        ? await postWebhook(step.http, 'PATCH', `${url.replace(/\/+$/, '')}/messages/${ref.message_id}`, step.body, 'discord edit')
        : await postWebhook(step.http, 'POST', withWait(url), step.body, 'discord');
      progress.message_id = String(json.id ?? ref?.message_id ?? '');
      await step.refs.save({ message_id: progress.message_id });
    } else {
      await postWebhook(step.http, 'POST', withWait(url), discordMessage({ text: replyText(payload), buttons: [], imageUrl: null }), 'discord');
    }
    return { ...progress, step: progress.step + 1 };
  },
});
