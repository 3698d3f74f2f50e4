import type { Config } from '../../lib/config.ts';
import type { Db, Executor } from '../../db/connection.ts';
import { ValidationFailed } from '../../lib/errors.ts';
import { localDate } from '../../lib/dates.ts';
import type { HomeCard } from '../chat-platform/platform.ts';
import { isParticipant, participatingCheckinUuids } from '../checkins/repository.ts';
import { answerForDay } from '../checkins/responses-service.ts';
import { IncompleteAnswer } from '../checkins/answer-rules.ts';
import { bool } from '../../lib/json.ts';
import { RESOLVED, formAnswers, viewOf } from './answer-service.ts';
import { resolveOwnBlockers } from '../checkins/blockers.ts';
import type { AnswerView, FormValues } from './answer-service.ts';
import { markPromptAnswered } from './chat-cards.ts';
import { reportedWith } from './edit-window.ts';
import { loopSettings, runsOn } from './schedule.ts';
import { lastTime } from './carry-over.ts';
import { answerHint, conditionWords } from '../checkins/question-kinds.ts';
import type { CheckinRow, PromptRow, QuestionRow, UserRow } from '../../db/tables.ts';

/**
 * Answering through a chat platform (the "receive" half of chat-platform/platform.ts): what a platform's request
 * handlers call once they have verified the request and found the person. The same view as the web answer page
 * (answer-service.ts) and the same responses service as POST …/responses/ and e-mail replies: same validation,
 * events, webhooks and edit window. Platform-neutral: Slack's modal, a Teams card or a Discord modal all come
 * here with the person's answers as form values (`q.<question uuid>`).
 */

/** What a person answers: the check-in and day, and the prompt that asked them (null when not asked yet). */
export interface ChatAnswerRef {
  checkin: string;
  date: string;
  prompt: string | null;
}

export type ChatAnswerOpen =
  | { state: 'invalid' }
  /** The prompt is another person's: nothing is shown or saved. */
  | { state: 'not_yours' }
  | { state: 'ok'; view: AnswerView; ref: ChatAnswerRef };

/** The person's own day of a check-in: the check-in's time zone, or theirs with use_participant_timezone. */
const dayOf = (checkin: CheckinRow, person: Pick<UserRow, 'timezone'>, now: Date): string =>
  localDate(now, loopSettings(checkin).personalTimeZones ? (person.timezone ?? checkin.timezone) : checkin.timezone);

/**
 * What a person answers through chat, from a prompt's button (`{prompt}`), from a check-in they take part in
 * (`{checkin}`: their day of today), or again from what a form opened with (`ref`).
 */
export async function openChatAnswer(db: Executor, person: UserRow, from: { prompt: string } | { checkin: string } | { ref: ChatAnswerRef }, now: Date): Promise<ChatAnswerOpen> {
  let ref: ChatAnswerRef;
  if ('checkin' in from) {
    const checkin: CheckinRow | undefined = await db('checkins').where({ uuid: from.checkin, organization_uuid: person.organization_uuid }).first();
    if (!checkin || !(await isParticipant(db, checkin.uuid, person.uuid))) return { state: 'invalid' };
    const date = dayOf(checkin, person, now);
    const prompt = await db('checkin_prompts').where({ checkin_uuid: checkin.uuid, user_uuid: person.uuid, run_date: date }).first('uuid');
    ref = { checkin: checkin.uuid, date, prompt: prompt?.uuid ?? null };
  } else {
    const promptUuid = 'prompt' in from ? from.prompt : from.ref.prompt;
    const prompt: PromptRow | undefined = promptUuid ? await db('checkin_prompts').where({ uuid: promptUuid }).first() : undefined;
    if (prompt) {
      if (prompt.organization_uuid !== person.organization_uuid) return { state: 'invalid' };
      if (prompt.user_uuid !== person.uuid) return { state: 'not_yours' };
      ref = { checkin: prompt.checkin_uuid, date: prompt.run_date, prompt: prompt.uuid };
    } else if ('ref' in from && !from.ref.prompt && (await isParticipant(db, from.ref.checkin, person.uuid))) {
      ref = from.ref;
    } else {
      return { state: 'invalid' };
    }
  }
  const found = await viewOf(db, { checkin_uuid: ref.checkin, user_uuid: person.uuid, run_date: ref.date });
  if (found.state !== 'ok' || found.view.checkin.organization_uuid !== person.organization_uuid) return { state: 'invalid' };
  return { state: 'ok', view: found.view, ref };
}

/**
 * What a chat form says under a question: how to answer it, when it is asked, and what the person answered last
 * time; and whether the form may require it (a question shown on a condition may not: every question is shown).
 */
export function questionNotes(view: AnswerView, q: QuestionRow): { hint: string; required: boolean } {
  const condition = conditionWords(q, view.questions);
  const said = lastTime(q, view.carry.previous);
  const hint = [answerHint(q), condition ?? '', said !== null ? `last time (${view.carry.previous!.date}): ${said}` : ''].filter(Boolean).join('; ');
  return { hint: hint ? hint[0].toUpperCase() + hint.slice(1) : '', required: bool(q.required) && !condition };
}

export type ChatAnswerSave =
  | { state: 'invalid' }
  | { state: 'not_yours' }
  | { state: 'closed'; view: AnswerView }
  /** Refused by the same rules as the web page: each problem by question uuid. */
  | { state: 'refused'; view: AnswerView; problems: Map<string, string> }
  | { state: 'saved'; view: AnswerView };

/**
 * Saves a person's answers from chat (`form`: `q.<uuid>` → values, as the web page's form), in `trx` with whatever
 * the caller records beside it (the request's nonce); their prompt message becomes "Answered ✓", a conversation
 * they had begun on it ends. Empty questions are unanswered, as on the web page.
 */
export async function saveChatAnswer(trx: Executor, config: Config, person: UserRow, ref: ChatAnswerRef, form: FormValues, now: Date): Promise<ChatAnswerSave> {
  const opened = await openChatAnswer(trx, person, { ref }, now);
  if (opened.state !== 'ok') return opened;
  const { view } = opened;
  if (!view.editable) return { state: 'closed', view };
  let responses: { uuid: string; response: unknown }[] | null = null;
  try {
    responses = formAnswers(view.questions, form);
    await answerForDay(trx, { checkin: view.checkin, questions: view.questions, author: view.person, date: view.date, responses }, now);
    await resolveOwnBlockers(trx, view.checkin, view.person, form.get(RESOLVED) ?? [], now);
  } catch (err) {
    if (!(err instanceof ValidationFailed)) throw err;
    const problems = new Map<string, string>();
    // A required question left empty (or blank) is named by itself.
    if (err instanceof IncompleteAnswer) {
      for (const q of err.questions) problems.set(q.uuid, 'This question needs an answer.');
      return { state: 'refused', view, problems };
    }
    // formAnswers names a question by its position, the responses service by the answer's: both become the question.
    for (const [field, messages] of Object.entries(err.fields)) {
      const index = Number(/^responses\.(\d+)/.exec(field)?.[1]);
      const uuid = (responses ? responses[index]?.uuid : view.questions[index]?.uuid) ?? view.questions[0]?.uuid;
      if (uuid && !problems.has(uuid)) problems.set(uuid, messages.join(' '));
    }
    return { state: 'refused', view, problems };
  }
  await markPromptAnswered(trx, config, { checkin: view.checkin, person: { ...view.person, uuid: person.uuid }, date: view.date }, now);
  if (ref.prompt) await trx('checkin_chat_conversations').where({ prompt_uuid: ref.prompt }).delete();
  return { state: 'saved', view: { ...view, answered: true } };
}

/** A person's check-ins of today (their own day for each), with where each stands: the App Home, `/rollcall status`. */
export async function todayOf(db: Db | Executor, person: UserRow, now: Date): Promise<HomeCard> {
  const checkins: CheckinRow[] = await db('checkins')
    .whereIn('uuid', participatingCheckinUuids(db, person.uuid))
    .where({ organization_uuid: person.organization_uuid, active: true, is_archived: false })
    .orderBy('time')
    .orderBy('name');
  const card: HomeCard = { name: person.first_name, checkins: [] };
  for (const checkin of checkins) {
    const date = dayOf(checkin, person, now);
    if (!runsOn(checkin, date)) continue;
    const response = await db('checkin_responses').where({ checkin_uuid: checkin.uuid, user_uuid: person.uuid, response_date: date }).first('uuid', 'response_completed');
    const prompt = await db('checkin_prompts').where({ checkin_uuid: checkin.uuid, user_uuid: person.uuid, run_date: date }).first('uuid');
    // A day answered in part (an agent's co-authored lines) is still waiting for the person, until the report closes it.
    const reported = response ? await reportedWith(db, checkin.uuid, date, person.uuid) : false;
    const state = reported ? 'closed' : response && bool(response.response_completed) ? 'answered' : 'pending';
    card.checkins.push({ uuid: checkin.uuid, name: checkin.name, date, state, prompt_uuid: prompt?.uuid ?? null });
  }
  return card;
}
