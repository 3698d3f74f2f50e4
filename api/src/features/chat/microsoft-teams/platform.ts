import type { ChatPost, PlatformBody } from '../../chat-platform/platform.ts';
import { replyText } from '../../chat-platform/platform.ts';
import { postWebhook } from '../../chat-platform/platform-http.ts';
import { webhookPlatform } from '../../chat-platform/webhook-platform.ts';

/** Microsoft Teams incoming webhook: a message with one Adaptive Card attachment. */
export function teamsMessage(post: ChatPost): PlatformBody {
  const body: Record<string, unknown>[] = [{ type: 'TextBlock', text: post.text, wrap: true }];
  if (post.imageUrl) body.push({ type: 'Image', url: post.imageUrl });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          ...(post.buttons.length ? { actions: post.buttons.map((b) => ({ type: 'Action.OpenUrl', title: b.text, url: b.url })) } : {}),
        },
      },
    ],
  };
}

/** Teams incoming webhooks neither thread nor edit: replies and edits are posted in order. */
export const teamsPlatform = webhookPlatform({
  kind: 'microsoft_teams',
  label: 'Microsoft Teams',
  post: teamsMessage,
  async send(step) {
    const { payload } = step;
    const body = payload.progress.step === 0 ? step.body : teamsMessage({ text: replyText(payload), buttons: [], imageUrl: null });
    await postWebhook(step.http, 'POST', step.connection.webhookUrl ?? '', body, 'microsoft teams');
    return { ...payload.progress, step: payload.progress.step + 1 };
  },
});
