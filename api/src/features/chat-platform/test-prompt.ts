import type { Config } from '../../lib/config.ts';
import type { Executor } from '../../db/connection.ts';
import type { Platform, UserRow } from '../../db/tables.ts';
import { enqueueChatPost } from './enqueue.ts';
import type { PromptCard } from './platform.ts';

/**
 * The admin screen's "send a test prompt to me": a prompt like a check-in's, with one question, whose answer is
 * not saved anywhere. It proves the whole way round: the direct message, the button, the modal, the submission.
 */
export function testPromptCard(messageUuid: string, config: Pick<Config, 'publicUrl' | 'port'>, now: Date): PromptCard {
  return {
    prompt_uuid: messageUuid,
    checkin_name: 'Rollcall test prompt',
    date: now.toISOString().slice(0, 10),
    intro: 'This is a test from the Admin screen: answering saves nothing.',
    outro: null,
    questions: [{ uuid: 'test', text: 'How is your day going?', type: 'text', required: false, choices: [] }],
    url: `${config.publicUrl ?? `http://localhost:${config.port}`}/app/`,
    test: true,
  };
}

/**
 * A test prompt answered (Teams, Google Chat): its message, when it is one of this person's organization, turns
 * "Answered ✓" through the outbox; nothing else is saved. False when the message is no test prompt of theirs.
 */
export async function answerTestPrompt(
  trx: Executor, config: Pick<Config, 'publicUrl' | 'port'>, person: UserRow, platform: Platform, messageUuid: string, now: Date,
): Promise<boolean> {
  if (!(await trx('chat_messages').where({ uuid: messageUuid, organization_uuid: person.organization_uuid }).first('uuid'))) return false;
  const card = { ...testPromptCard(messageUuid, config, now), answered: true };
  await enqueueChatPost(trx, {
    organizationUuid: person.organization_uuid, platform, botMessageId: messageUuid, edit: true, text: 'Rollcall test prompt: answered ✓',
    message: { kind: 'prompt', prompt: card }, channels: [], users: [person], kind: 'chat.test_prompt',
  }, now);
  return true;
}
