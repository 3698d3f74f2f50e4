import type { Operation } from '../../http/openapi/types.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { str, uuid } from '../../http/openapi/components.ts';
import { chatSchema } from './schema.ts';
import { TOPICS } from './topics.ts';

export const schemas: Record<string, JsonSchema> = {
  ChatAnswer: {
    type: 'object',
    properties: {
      status: { const: 'completed' },
      async: { const: false },
      correlation_id: uuid,
      classification: { enum: [...TOPICS], description: 'What the question was taken to be about.' },
      message: { type: 'object', properties: { role: { const: 'assistant' }, content: str } },
      actions: { type: 'array', items: { type: 'object', properties: { type: { const: 'command' }, command: str, description: str } } },
      session_id: { ...uuid, description: 'Send it back with the next question to keep the conversation.' },
      answered_by: { enum: ['language_model', 'built_in'] },
    },
  },
};

export const operations: Operation[] = [
  {
    method: 'post', path: '/v1/cli/chat/completions/', tag: 'Command-line client', scope: 'agent', body: chatSchema,
    summary: 'Ask the assistant about your own check-ins, blockers, answers and agent reports',
    description:
      'With LLM_BASE_URL set, the question goes to that OpenAI-compatible endpoint with your own data as context; without it, the built-in assistant ' +
      'answers what it can from your data and says what it cannot. `session_id` keeps the earlier turns (`reset_thread: true` starts afresh). ' +
      '30 questions per minute per credential (429 `throttled`).',
    responses: { 200: 'ChatAnswer' },
  },
];
