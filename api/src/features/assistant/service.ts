import type { Db } from '../../db/connection.ts';
import type { Actor } from '../../auth/credentials.ts';
import { localDate } from '../../lib/dates.ts';
import type { Logger } from '../../lib/logger.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { builtInAnswer, suggestedActions } from './built-in.ts';
import { askLanguageModel, callerContext } from './language-model.ts';
import type { LanguageModel, ModelTurn } from './language-model.ts';
import type { ChatInput } from './schema.ts';
import { appendTurns, earlierTurns, openSession } from './sessions.ts';
import { classify, defaultRange, isTopic, rangeOf } from './topics.ts';
import type { Topic } from './topics.ts';

export interface ChatAnswer {
  sessionUuid: string;
  correlationId: string;
  classification: Topic;
  content: string;
  actions: ReturnType<typeof suggestedActions>;
  answeredBy: 'language_model' | 'built_in';
}

/** The question: `message`, or the last user turn of `messages` (whose earlier turns are then history). */
function questionOf(input: ChatInput): { question: string; carried: ModelTurn[] } {
  if (typeof input.message === 'string' && input.message.trim() !== '') return { question: input.message.trim(), carried: (input.messages ?? []) as ModelTurn[] };
  const messages = (input.messages ?? []) as ModelTurn[];
  return { question: messages.at(-1)!.content.trim(), carried: messages.slice(0, -1) };
}

/**
 * One question to the assistant (CONTRACT §8). The session (`session_id`, or a new one) gives the earlier turns:
 * the language model gets them as the conversation, the built-in assistant carries the previous topic over to a
 * follow-up ("and yesterday?"). With LLM_BASE_URL the question goes to the model with the caller's own data as
 * context; without it, or when the model does not answer, the built-in assistant answers. No transaction is
 * open while the model is asked.
 */
export async function chat(services: { db: Db; llm: LanguageModel | null; logger: Logger }, actor: Actor, input: ChatInput, now: Date): Promise<ChatAnswer> {
  const { db, llm, logger } = services;
  const { question, carried } = questionOf(input);
  const { session, created } = await openSession(db, actor, input.session_id, input.reset_thread === true, now);
  const stored = created ? [] : await earlierTurns(db, session.uuid);
  const earlier: ModelTurn[] = stored.length ? stored.map((turn) => ({ role: turn.role, content: turn.content })) : [...((input.history ?? []) as ModelTurn[]), ...carried];
  const previous = stored.findLast((turn) => turn.role === 'assistant')?.classification ?? null;

  const topic = classify(question, isTopic(previous) ? previous : null);
  const timeZone = actor.user.timezone || actor.organization.timezone || 'UTC';
  const today = localDate(now, timeZone);
  const reading = { db, actor, now, timeZone, today, range: rangeOf(question, today) ?? defaultRange(today) };

  let content: string;
  let answeredBy: ChatAnswer['answeredBy'] = 'built_in';
  if (llm) {
    const answer = await askLanguageModel(llm, [{ role: 'system', content: await callerContext(reading) }, ...earlier, { role: 'user', content: question }]);
    if (answer.ok) {
      content = answer.content;
      answeredBy = 'language_model';
    } else {
      logger.warn({ reason: answer.reason }, 'language model did not answer; the built-in assistant answered');
      content = `The language model did not answer (${answer.reason}), so here is what I can tell from your own data.\n\n${await builtInAnswer(topic, reading)}`;
    }
  } else {
    content = await builtInAnswer(topic, reading);
  }

  await db.transaction((trx) =>
    appendTurns(trx, session.uuid, [{ role: 'user', content: question, classification: null }, { role: 'assistant', content, classification: topic }], now),
  );
  return { sessionUuid: session.uuid, correlationId: uuidv7(now.getTime()), classification: topic, content, actions: suggestedActions(topic, input.available_commands), answeredBy };
}
