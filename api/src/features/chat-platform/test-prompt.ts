import type { Config } from '../../lib/config.ts';
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
