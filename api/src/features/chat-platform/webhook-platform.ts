import type { ChatPlatform, ChatPost, PlatformBody, ReportChannel, SendProgress, SendStep } from './platform.ts';

/**
 * What the incoming-webhook platforms (Microsoft Teams, Discord, Google Chat) share: they post to the one channel
 * they were connected with, prompts and reports as text, and take no requests. Each platform's module gives its
 * message format and how it posts (`send`).
 */
export function webhookPlatform(spec: {
  kind: ChatPlatform['kind'];
  label: string;
  post(post: ChatPost): PlatformBody;
  send(step: SendStep): Promise<SendProgress>;
}): ChatPlatform {
  const text = (value: string) => spec.post({ text: value, buttons: [], imageUrl: null });
  return {
    kind: spec.kind,
    label: spec.label,
    directMessages: false,
    ask: (_prompt, value) => text(value),
    remind: (_prompt, value) => text(value),
    report: (_report, value) => text(value),
    post: spec.post,
    send: spec.send,
    channels: async ({ connection }): Promise<ReportChannel[]> => [
      { id: 'default', name: connection.channelName ?? 'Incoming webhook channel', platform: spec.kind, type: 'webhook' },
    ],
    receive: null,
  };
}
