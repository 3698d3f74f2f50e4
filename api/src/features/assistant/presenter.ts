import type { ChatAnswer } from './service.ts';

/** POST /v1/cli/chat/completions/ (CONTRACT §8): answered at once (`async: false`). */
export const presentChatAnswer = (answer: ChatAnswer) => ({
  status: 'completed',
  async: false,
  correlation_id: answer.correlationId,
  classification: answer.classification,
  message: { role: 'assistant', content: answer.content },
  actions: answer.actions,
  session_id: answer.sessionUuid,
  answered_by: answer.answeredBy,
});
