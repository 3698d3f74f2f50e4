import * as yup from 'yup';
import { uuidField } from '../../http/fields.ts';

export const MAX_TURN_CHARS = 8000;

const turn = yup.object({
  role: yup.string().oneOf(['user', 'assistant', 'system']).required(),
  content: yup.string().max(MAX_TURN_CHARS).required(),
});

/**
 * POST /v1/cli/chat/completions/ `{message? | messages?, session_id?}` plus what existing clients send
 * (CONTRACT §8, §12): `history` (earlier turns the client kept), `available_commands` (what it can run, to
 * suggest), `reset_thread` (start a new session). The question is `message`, or the last user turn of `messages`.
 */
export const chatSchema = yup
  .object({
    message: yup.string().max(MAX_TURN_CHARS),
    messages: yup.array(turn.required()).max(50),
    session_id: uuidField(),
    history: yup.array(turn.required()).max(50),
    available_commands: yup.array(yup.mixed<string | Record<string, unknown>>().required()).max(200),
    reset_thread: yup.boolean(),
  })
  .test('question', 'Send message, or messages ending with a user turn.', function (value) {
    if (!value) return true;
    if (typeof value.message === 'string' && value.message.trim() !== '') return true;
    const last = value.messages?.at(-1);
    if (last && last.role === 'user' && last.content.trim() !== '') return true;
    return this.createError({ path: 'message', message: 'Send message, or messages ending with a user turn.' });
  });
export type ChatInput = yup.InferType<typeof chatSchema>;
export type Turn = yup.InferType<typeof turn>;
