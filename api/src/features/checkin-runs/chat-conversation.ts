import type { Config } from '../../lib/config.ts';
import type { Executor } from '../../db/connection.ts';
import { ValidationFailed } from '../../lib/errors.ts';
import { bool, readJson, writeJson } from '../../lib/json.ts';
import { enqueueChatPost } from '../chat-platform/enqueue.ts';
import { answerForDay } from '../checkins/responses-service.ts';
import { isAnswered } from '../checkins/answer-rules.ts';
import type { AnswerValue } from '../checkins/responses-service.ts';
import { viewOf } from './answer-service.ts';
import type { AnswerView } from './answer-service.ts';
import { directMessagePlatform, markPromptAnswered } from './chat-cards.ts';
import { typed } from './email-replies.ts';
import { lastTime } from './carry-over.ts';
import { answerHint, visibleQuestions } from '../checkins/question-kinds.ts';
import type { ChatConversationRow, CheckinRow, PromptRow, QuestionRow, ResponseRow, UserRow } from '../../db/tables.ts';

/**
 * Answering in the conversation: a person replies to their prompt's direct message, and each reply answers the
 * next question, one at a time; after the last, the answers are saved through the responses service (as the
 * web page and e-mail replies). `skip` leaves a question as it is (a required one without an answer cannot be
 * skipped), `edit` starts again from the first. The answers so far wait in `checkin_chat_conversations`; a
 * conversation left half-way is saved as far as it got when the day's report goes out (saveConversationsOf).
 * Platform-neutral: a platform hands each message's text here; the replies go back as direct messages.
 */

const SKIP = 'skip';
const EDIT = 'edit';

function hint(q: QuestionRow): string {
  const words = answerHint(q);
  return words ? ` (${words})` : '';
}

/**
 * The first question from `position` on that is asked, given the answers so far (the day's saved ones, then the
 * conversation's): a question whose condition hides it is passed over. The questions' length when none is left.
 */
function nextAsked(view: AnswerView, given: Record<string, unknown>, position: number): number {
  const answers = new Map(merged(view, given).map((a) => [a.uuid, a.response as AnswerValue]));
  const shown = new Set(visibleQuestions(view.questions, answers).map((q) => q.uuid));
  let next = position;
  while (next < view.questions.length && !shown.has(view.questions[next].uuid)) next++;
  return next;
}

const shown = (value: AnswerValue): string => (Array.isArray(value) ? value.join(', ') : typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value));

function questionText(view: AnswerView, position: number): string {
  const q = view.questions[position];
  const now = view.answers.get(q.uuid);
  const said = lastTime(q, view.carry.previous);
  const last = said !== null && !isAnswered(now) ? `\nLast time (${view.carry.previous!.date}): ${said}` : '';
  return `${position + 1}/${view.questions.length} · ${q.question}${hint(q)}${isAnswered(now) ? `\nNow: ${shown(now!).slice(0, 300)} (\`skip\` keeps it)` : ''}${last}`;
}

interface Turn {
  person: UserRow;
  replies: string[];
}

async function reply(trx: Executor, turn: Turn, now: Date): Promise<void> {
  const platform = await directMessagePlatform(trx, turn.person.organization_uuid);
  if (!platform) return;
  for (const text of turn.replies) {
    await enqueueChatPost(trx, { organizationUuid: turn.person.organization_uuid, platform, text, channels: [], users: [turn.person], kind: 'checkin.conversation' }, now);
  }
}

/** The prompt a new conversation is about: the person's latest one still open to answers. */
async function latestPrompt(trx: Executor, person: UserRow): Promise<{ prompt: PromptRow; view: AnswerView } | null> {
  const prompts: PromptRow[] = await trx('checkin_prompts').where({ user_uuid: person.uuid }).orderBy('prompted_at', 'desc').limit(5);
  for (const prompt of prompts) {
    const found = await viewOf(trx, prompt);
    if (found.state === 'ok' && found.view.editable) return { prompt, view: found.view };
  }
  return null;
}

/** The answers of the conversation over what the person had already saved for the day (`skip` keeps those). */
function merged(view: AnswerView, given: Record<string, unknown>): { uuid: string; response: unknown }[] {
  return view.questions.flatMap((q) => {
    const value = Object.hasOwn(given, q.uuid) ? given[q.uuid] : view.answers.get(q.uuid);
    return value === undefined ? [] : [{ uuid: q.uuid, response: value }];
  });
}

/**
 * Saves the conversation's answers; `inPart` (the report is going out) keeps them even when a required question
 * has none yet: the day is then not answered, and the report marks the answer not finished.
 */
async function save(trx: Executor, config: Config, row: ChatConversationRow, view: AnswerView, now: Date, inPart = false): Promise<string | null> {
  let saved: ResponseRow;
  try {
    ({ row: saved } = await answerForDay(trx, { checkin: view.checkin, questions: view.questions, author: view.person, date: view.date, responses: merged(view, readJson(row.answers, {})), inPart }, now));
  } catch (err) {
    if (err instanceof ValidationFailed) return Object.values(err.fields).flat().join(' ');
    throw err;
  }
  await trx('checkin_chat_conversations').where({ prompt_uuid: row.prompt_uuid }).delete();
  if (bool(saved.response_completed)) await markPromptAnswered(trx, config, { checkin: view.checkin, person: { ...view.person }, date: view.date }, now);
  return null;
}

/**
 * One message a person sent in their direct conversation with the app, in the caller's transaction (with the
 * request's nonce). Returns what was done, for the caller's log; the replies are queued as direct messages.
 */
export async function conversationReply(trx: Executor, config: Config, person: UserRow, message: string, now: Date): Promise<'asked' | 'saved' | 'nothing_open' | 'already_answered' | 'refused'> {
  const text = message.trim();
  const word = text.toLowerCase();
  const turn: Turn = { person, replies: [] };
  let row: ChatConversationRow | undefined = await trx('checkin_chat_conversations').where({ user_uuid: person.uuid }).orderBy('updated_at', 'desc').first();
  let view: AnswerView | null = null;
  if (row) {
    const found = await viewOf(trx, { checkin_uuid: row.checkin_uuid, user_uuid: person.uuid, run_date: row.run_date });
    if (found.state === 'ok' && found.view.editable) view = found.view;
    else {
      await trx('checkin_chat_conversations').where({ prompt_uuid: row.prompt_uuid }).delete();
      row = undefined;
    }
  }
  if (!row || !view) {
    const latest = await latestPrompt(trx, person);
    if (!latest) {
      turn.replies.push('There is nothing to answer right now. `/rollcall status` shows your check-ins of today.');
      await reply(trx, turn, now);
      return 'nothing_open';
    }
    view = latest.view;
    if (view.answered && word !== EDIT) {
      turn.replies.push(`You have answered ${view.checkin.name} for ${view.date} ✓. Reply \`edit\` to change your answers.`);
      await reply(trx, turn, now);
      return 'already_answered';
    }
    row = {
      prompt_uuid: latest.prompt.uuid, organization_uuid: latest.prompt.organization_uuid, checkin_uuid: latest.prompt.checkin_uuid, user_uuid: person.uuid,
      run_date: latest.prompt.run_date, position: 0, answers: '{}', updated_at: now.toISOString(),
    };
    await trx('checkin_chat_conversations').insert(row);
    if (word === EDIT) {
      turn.replies.push(`Changing ${view.checkin.name} for ${view.date}.\n${questionText(view, 0)}`);
      await reply(trx, turn, now);
      return 'asked';
    }
  }
  const given = readJson<Record<string, unknown>>(row.answers, {});
  let position = row.position;
  const q = view.questions[position];
  if (!q) position = view.questions.length;
  else if (word === EDIT) {
    position = 0;
    for (const key of Object.keys(given)) delete given[key];
    turn.replies.push(`Starting again.\n${questionText(view, 0)}`);
  } else if (word === SKIP) {
    const has = isAnswered(view.answers.get(q.uuid)) || Object.hasOwn(given, q.uuid);
    if (Number(q.required) && !has) turn.replies.push(`This question needs an answer.\n${questionText(view, position)}`);
    else position++;
  } else {
    const value = typed(q, text);
    if (value === undefined) turn.replies.push(`That is not an answer to this question${hint(q)}.\n${questionText(view, position)}`);
    else {
      given[q.uuid] = value;
      position++;
    }
  }
  // A question its condition hides (given the answers so far) is not asked.
  if (position > row.position) position = nextAsked(view, given, position);
  const updated = { ...row, position, answers: writeJson(given), updated_at: now.toISOString() };
  if (position >= view.questions.length) {
    const problem = await save(trx, config, updated, view, now);
    if (problem) {
      turn.replies.push(`Not saved: ${problem}`);
      await reply(trx, turn, now);
      return 'refused';
    }
    turn.replies.push(`Saved ✓ ${view.checkin.name} for ${view.date}. Reply \`edit\` to change your answers until the report goes out.`);
    await reply(trx, turn, now);
    return 'saved';
  }
  await trx('checkin_chat_conversations').where({ prompt_uuid: row.prompt_uuid }).update({ position, answers: updated.answers, updated_at: updated.updated_at });
  if (turn.replies.length === 0) turn.replies.push(questionText(view, position));
  await reply(trx, turn, now);
  return 'asked';
}

/**
 * The day's report is going out: every conversation about that check-in and day is saved as far as it got
 * (in the report's transaction, so the report shows it, marked not finished when a required question has no
 * answer), and ends.
 */
export async function saveConversationsOf(trx: Executor, config: Config, checkin: CheckinRow, date: string, now: Date): Promise<number> {
  const rows: ChatConversationRow[] = await trx('checkin_chat_conversations').where({ checkin_uuid: checkin.uuid, run_date: date });
  let saved = 0;
  for (const row of rows) {
    const given = readJson<Record<string, unknown>>(row.answers, {});
    const found = await viewOf(trx, { checkin_uuid: row.checkin_uuid, user_uuid: row.user_uuid, run_date: row.run_date });
    if (found.state === 'ok' && Object.keys(given).length > 0 && !(await save(trx, config, row, found.view, now, true))) saved++;
    await trx('checkin_chat_conversations').where({ prompt_uuid: row.prompt_uuid }).delete();
  }
  return saved;
}

/** Conversations nobody finished and no team report saved (a check-in reporting answers one by one): kept 2 days. */
export const pruneConversations = (db: Executor, now: Date): Promise<number> =>
  db('checkin_chat_conversations').where('updated_at', '<', new Date(now.getTime() - 2 * 86_400_000).toISOString()).delete();
