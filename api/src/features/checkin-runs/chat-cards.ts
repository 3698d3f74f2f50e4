import type { Config } from '../../lib/config.ts';
import type { Executor } from '../../db/connection.ts';
import { bool, readJson } from '../../lib/json.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { platformName, sendsDirectMessages } from '../chat-platform/connection.ts';
import { enqueueChatPost } from '../chat-platform/enqueue.ts';
import type { ChatQuestion, PromptCard } from '../chat-platform/platform.ts';
import { questionsOf } from '../checkins/repository.ts';
import { answersOf } from '../checkins/response-parts.ts';
import { loopSettings } from './schedule.ts';
import { answerHint, conditionWords, kindOf, scaleSteps } from '../checkins/question-kinds.ts';
import { answerUrl, newAnswerToken, storeAnswerTokens } from './tokens.ts';
import type { CheckinRow, Platform, PromptRow, QuestionRow } from '../../db/tables.ts';

/**
 * The loop's cards for chat (chat-platform/platform.ts): a prompt as a direct message on the platforms that have
 * them, its reminders, and the same message turned into "Answered ✓" once the person answered, wherever they
 * answered (in chat, on the web page, by e-mail).
 */

export function chatQuestion(q: QuestionRow, questions: QuestionRow[] = [q]): ChatQuestion {
  const kind = kindOf(q);
  const condition = conditionWords(q, questions);
  return {
    uuid: q.uuid,
    text: q.question,
    type: q.question_type,
    // A question shown on a condition cannot be required in a form that shows every question at once.
    required: bool(q.required) && !condition,
    choices: readJson<{ label: string; value: string }[]>(q.choices, []),
    multiple: kind.multiple,
    min: kind.min,
    max: kind.max,
    steps: scaleSteps(q),
    hint: [answerHint(q), condition ?? ''].filter(Boolean).join('; '),
  };
}

export function promptCard(p: { promptUuid: string; checkin: CheckinRow; questions: QuestionRow[]; date: string; url: string; answered?: boolean; carry?: string[]; answers?: PromptCard['answers'] }): PromptCard {
  const settings = loopSettings(p.checkin);
  return {
    prompt_uuid: p.promptUuid,
    checkin_name: p.checkin.name,
    date: p.date,
    intro: settings.intro,
    outro: settings.outro,
    questions: p.questions.map((q) => chatQuestion(q, p.questions)),
    url: p.url,
    ...(p.carry?.length ? { carry: p.carry } : {}),
    ...(p.answered ? { answered: true } : {}),
    ...(p.answers ? { answers: p.answers } : {}),
  };
}

/** The platform the organization's prompts go to as direct messages, or null (none connected, or one without). */
export async function directMessagePlatform(db: Executor, organizationUuid: string): Promise<Platform | null> {
  const platform = await platformName(db, organizationUuid);
  return platform && (await sendsDirectMessages(db, organizationUuid, platform)) ? platform : null;
}

export interface PromptMessage {
  platform: Platform;
  prompt: Pick<PromptRow, 'uuid' | 'organization_uuid'>;
  person: { email: string; first_name: string; last_name: string };
  card: PromptCard;
  /** The text of the card (the notification, and the whole message where cards are not shown). */
  text: string;
}

/** The prompt's direct message; recorded under the prompt's uuid, so its answered state edits it later. */
export const enqueuePrompt = (trx: Executor, m: PromptMessage, now: Date) =>
  enqueueChatPost(trx, {
    organizationUuid: m.prompt.organization_uuid, platform: m.platform, botMessageId: m.prompt.uuid, text: m.text, message: { kind: 'prompt', prompt: m.card },
    channels: [], users: [m.person], kind: 'checkin.prompt', subjectUuid: m.prompt.uuid,
  }, now);

/** A reminder: a message of its own, whose "Answer" answers the same prompt. */
export const enqueueReminder = (trx: Executor, m: PromptMessage, now: Date) =>
  enqueueChatPost(trx, {
    organizationUuid: m.prompt.organization_uuid, platform: m.platform, botMessageId: uuidv7(now.getTime()), text: m.text, message: { kind: 'reminder', prompt: m.card },
    channels: [], users: [m.person], kind: 'checkin.reminder', subjectUuid: m.prompt.uuid,
  }, now);

/**
 * After a person's answer of `date` was saved: their prompt's direct message (when one was sent) becomes
 * "Answered ✓" with a way to edit, holding the answers as saved (to pre-fill inputs), in the transaction that saved it.
 */
export async function markPromptAnswered(
  trx: Executor, config: Config, p: { checkin: CheckinRow; person: { uuid: string; email: string; first_name: string; last_name: string }; date: string }, now: Date,
): Promise<void> {
  const prompt: PromptRow | undefined = await trx('checkin_prompts').where({ checkin_uuid: p.checkin.uuid, user_uuid: p.person.uuid, run_date: p.date }).first();
  if (!prompt) return;
  const message = await trx('chat_messages').where({ uuid: prompt.uuid }).first('platform');
  if (!message || !(await directMessagePlatform(trx, prompt.organization_uuid))) return;
  const { token, row } = newAnswerToken({ checkinUuid: p.checkin.uuid, userUuid: p.person.uuid, date: p.date, timeZone: prompt.timezone }, now);
  await storeAnswerTokens(trx, [row]);
  const questions = await questionsOf(trx, p.checkin.uuid);
  const response = await trx('checkin_responses').where({ checkin_uuid: p.checkin.uuid, user_uuid: p.person.uuid, response_date: p.date }).first('uuid', 'answers');
  const answers = response ? Object.fromEntries((await answersOf(trx, response)).map((a) => [a.uuid, a.response])) : {};
  const card = promptCard({ promptUuid: prompt.uuid, checkin: p.checkin, questions, date: p.date, url: answerUrl(config, token), answered: true, answers });
  await enqueueChatPost(trx, {
    organizationUuid: prompt.organization_uuid, platform: message.platform, botMessageId: prompt.uuid, edit: true, text: `${p.checkin.name} (${p.date}): answered ✓`,
    message: { kind: 'prompt', prompt: card }, channels: [], users: [p.person], kind: 'checkin.answered', subjectUuid: prompt.uuid,
  }, now);
}
