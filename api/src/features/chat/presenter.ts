import type { ReportChannel } from './service.ts';

/** POST /v1/send-message/: the message's id (pass it again as bot_message_id to edit) and how many targets it went to. */
export function presentMessageSent(sent: { botMessageId: string; threadResponses: string[]; targets: number }) {
  return { bot_message_id: sent.botMessageId, thread_responses: sent.threadResponses, targets: sent.targets };
}

export const presentConversation = (channel: string) => ({ channel });

export const presentReportChannels = (channels: ReportChannel[]) => ({ channels, total: channels.length });
