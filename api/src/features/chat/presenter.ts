import type { ReportChannel } from '../chat-platform/platform.ts';

/** POST /v1/send-message/: the message's id (pass it again as bot_message_id to edit) and how many targets it went to. */
export function presentMessageSent(sent: { botMessageId: string; threadResponses: string[]; targets: number }) {
  return { bot_message_id: sent.botMessageId, thread_responses: sent.threadResponses, targets: sent.targets };
}

export const presentConversation = (channel: string) => ({ channel });

export const presentReportChannels = (channels: ReportChannel[]) => ({ channels, total: channels.length });

/** POST /v1/integrations/test-prompt/: queued as a direct message to the caller. */
export const presentTestPrompt = (sent: { botMessageId: string; platform: string; to: string }) => ({ queued: true, bot_message_id: sent.botMessageId, platform: sent.platform, to: sent.to });
