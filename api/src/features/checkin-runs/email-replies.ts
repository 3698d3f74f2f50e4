import type { Config } from '../../lib/config.ts';
import type { Db } from '../../db/connection.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Clock } from '../../lib/clock.ts';
import { bool, readJson } from '../../lib/json.ts';
import { enqueueEmail } from '../../outbox/deliveries.ts';
import type { InboundEmail } from '../../inbound/parse.ts';
import type { InboundHandler } from '../../inbound/registry.ts';
import { questionsOf } from '../checkins/repository.ts';
import { answerForDay } from '../checkins/responses-service.ts';
import { IncompleteAnswer } from '../checkins/answer-rules.ts';
import { incompleteReplyEmail, unsplitReplyEmail } from './messages.ts';
import { MOOD_FACES, kindOf } from '../checkins/question-kinds.ts';
import { markPromptAnswered } from './chat-cards.ts';
import { reportedWith } from './edit-window.ts';
import { answerUrl, messageKey, newAnswerToken, newReplyIdentity, replyKeyOf, storeAnswerTokens, storeReplyKeys } from './tokens.ts';
import type { CheckinRow, PromptRow, QuestionRow } from '../../db/tables.ts';

/**
 * Answering by e-mail. A reply finds its prompt by the per-prompt reply address it was sent to, or by the
 * Message-ID of a prompt or reminder in In-Reply-To or References; never by its sender alone (anyone can write
 * any From), and the sender must also be the person asked. The reply's new text (`visibleText`: quoted text and
 * signature cut by email-reply-parser, in the inbound parser's thread) is split into answers in question order:
 * numbered lines `1.` … `n.`, or one paragraph per question. Anything else is saved whole as the first text answer,
 * and the person gets one e-mail saying how it was read, with a web link to fix it. A reply that leaves a required
 * question unanswered (or blank) is not recorded: the person gets an e-mail naming those questions, which they can
 * reply to. A reply older than the answer already saved (by its Date, `olderThanAnswer`) is dropped.
 */

/**
 * The reply split into answers in question order: numbered lines `1.` … up to `count` (fewer leave the later
 * questions unanswered), or exactly `count` paragraphs; null when it does not split that way.
 */
export function splitAnswers(text: string, count: number): string[] | null {
  const lines = text.split('\n');
  const numbered: string[][] = [];
  let before = false;
  for (const line of lines) {
    const match = /^\s*(\d{1,2})[.)]\s*(.*)$/.exec(line);
    if (match && Number(match[1]) === numbered.length + 1) numbered.push([match[2]]);
    else if (numbered.length) numbered[numbered.length - 1].push(line);
    else if (line.trim() !== '') before = true;
  }
  if (!before && numbered.length > 0 && numbered.length <= count) return numbered.map((part) => part.join('\n').trim());
  const paragraphs = text.split(/\n[ \t]*\n/).map((p) => p.trim()).filter((p) => p !== '');
  return paragraphs.length === count ? paragraphs : null;
}

const YES = /^(y|yes|yeah|yep|true|s[ií]|sim|1)[.!]?$/i;
const NO = /^(n|no|nope|false|n[aã]o|0)[.!]?$/i;

/** One answer's text as its question's type takes it; undefined when it cannot be read so. */
export function typed(q: QuestionRow, text: string): unknown {
  switch (q.question_type) {
    case 'boolean':
      return YES.test(text) ? true : NO.test(text) ? false : undefined;
    case 'numeric': {
      // A mood's face stands for its number; "4/5" or "4 out of 5" on a scale is its first number.
      const face = MOOD_FACES.findIndex((f) => text.trim() === f);
      if (face >= 0 && kindOf(q).presentation === 'mood') return face + 1;
      const scored = /^\s*(-?\d+(?:[.,]\d+)?)\s*(?:\/|out of|de|of)\s*\d+\s*$/i.exec(text);
      const n = Number((scored ? scored[1] : text).replace(',', '.'));
      return text.trim() !== '' && Number.isFinite(n) ? n : undefined;
    }
    case 'multiple_choice': {
      const choices = readJson<{ label: string; value: string }[]>(q.choices, []);
      const picked = text.split(/[,\n]/).map((t) => t.trim().toLowerCase()).filter(Boolean);
      const values = choices.filter((c) => picked.includes(c.label.toLowerCase()) || picked.includes(c.value.toLowerCase())).map((c) => c.value);
      return values.length === picked.length && values.length > 0 ? values : undefined;
    }
    default:
      return text;
  }
}

/** The answers a reply gives, and whether it split into one per question. */
export function readReply(questions: QuestionRow[], text: string): { responses: { uuid: string; response: unknown }[]; split: boolean; parts: number } {
  const split = splitAnswers(text, questions.length);
  if (split) {
    const parts = questions.map((_, i) => split[i] ?? '');
    const responses = questions.map((q, i) => ({ uuid: q.uuid, response: parts[i] === '' ? undefined : typed(q, parts[i]) }));
    if (responses.every((r, i) => r.response !== undefined || parts[i] === '')) return { responses: responses.filter((r) => r.response !== undefined), split: true, parts: parts.length };
  }
  const first = questions.find((q) => q.question_type === 'text');
  const found = text.split(/\n[ \t]*\n/).filter((p) => p.trim() !== '').length;
  return { responses: first && text !== '' ? [{ uuid: first.uuid, response: text.slice(0, 10_000) }] : [], split: false, parts: found };
}

export interface ReplyDeps {
  db: Db;
  config: Config;
  logger: Logger;
  clock: Clock;
  kick: () => void;
}

/** The keys a message could match: the reply addresses it went to, then the Message-IDs it answers. */
function keysOf(mail: InboundEmail, domain: string): { keys: string[]; addressed: boolean } {
  const addresses = mail.to.map((a) => replyKeyOf(a, domain)).filter((k): k is string => k !== null);
  const ids = [mail.inReplyTo, ...mail.references].filter((id): id is string => Boolean(id)).map(messageKey);
  return { keys: [...addresses, ...ids], addressed: addresses.length > 0 };
}

/** The inbound route of check-in replies: takes a message that names one of our prompts (and drops it when it cannot be used). */
export function checkinReplyHandler(deps: ReplyDeps): InboundHandler {
  return async (mail) => {
    const { keys, addressed } = keysOf(mail, deps.config.inboundEmailDomain);
    if (keys.length === 0) return false;
    const matches: { key: string; prompt_uuid: string }[] = await deps.db('checkin_reply_keys').whereIn('key', keys.slice(0, 50)).select('key', 'prompt_uuid');
    const match = keys.map((k) => matches.find((m) => m.key === k)).find(Boolean);
    if (!match) {
      // A reply address of ours that matches no prompt is taken and dropped: nobody else can use it.
      if (addressed) deps.logger.info({ message_id: mail.messageId }, 'check-in reply to an unknown reply address dropped');
      return addressed;
    }
    const outcome = await saveReply(deps, match.prompt_uuid, mail);
    deps.logger.info({ prompt: match.prompt_uuid, outcome, message_id: mail.messageId }, 'check-in reply');
    if (outcome === 'saved' || outcome === 'saved_whole' || outcome === 'incomplete') deps.kick();
    return true;
  };
}

type ReplyOutcome = 'saved' | 'saved_whole' | 'incomplete' | 'not_the_person' | 'closed' | 'gone' | 'empty' | 'older_than_answer';

/** When a reply was written: its Date header, but never later than its arrival (a skewed or forged clock); else its arrival. */
const writtenAt = (mail: InboundEmail, now: Date): string => (mail.date && mail.date < now.toISOString() ? mail.date : now.toISOString());

/**
 * Whether a reply is older than the answer it would replace, so that a reply replayed or delayed never overwrites
 * a newer one. Replies are ordered by when they were written (the prompt keeps the last saved one's); an answer
 * given any other way (the web page, the API, an agent's merge: the response changed after the last reply was
 * saved) by when it was saved.
 */
function olderThanAnswer(prompt: PromptRow, existing: { updated_at: string } | undefined, written: string): boolean {
  if (prompt.reply_written_at && written < prompt.reply_written_at) return true;
  const answeredElsewhere = existing !== undefined && (!prompt.reply_saved_at || existing.updated_at > prompt.reply_saved_at);
  return answeredElsewhere && written < existing.updated_at;
}

async function saveReply(deps: ReplyDeps, promptUuid: string, mail: InboundEmail): Promise<ReplyOutcome> {
  const now = deps.clock.now();
  return deps.db.transaction(async (trx) => {
    const prompt: PromptRow | undefined = await trx('checkin_prompts').where({ uuid: promptUuid }).first();
    const checkin: CheckinRow | undefined = prompt ? await trx('checkins').where({ uuid: prompt.checkin_uuid }).first() : undefined;
    const person = prompt ? await trx('users').where({ uuid: prompt.user_uuid }).first('uuid', 'first_name', 'last_name', 'email', 'is_active') : undefined;
    if (!prompt || !checkin || !person || bool(checkin.is_archived) || !bool(person.is_active)) return 'gone';
    if (person.email.toLowerCase() !== mail.from) return 'not_the_person';
    const existing = await trx('checkin_responses').where({ checkin_uuid: checkin.uuid, user_uuid: person.uuid, response_date: prompt.run_date }).first('uuid', 'updated_at');
    if (existing && (await reportedWith(trx, checkin.uuid, prompt.run_date, person.uuid))) return 'closed';
    const written = writtenAt(mail, now);
    if (olderThanAnswer(prompt, existing, written)) return 'older_than_answer';
    const questions = await questionsOf(trx, checkin.uuid);
    const text = mail.visibleText;
    const read = readReply(questions, text);
    if (read.responses.length === 0 && !questions.some((q) => bool(q.required))) return 'empty';
    const { is_active: _active, ...author } = person;
    const link = () => {
      const { token, row } = newAnswerToken({ checkinUuid: checkin.uuid, userUuid: person.uuid, date: prompt.run_date, timeZone: prompt.timezone }, now);
      return { url: answerUrl(deps.config, token), row };
    };
    try {
      await answerForDay(trx, { checkin, questions, author, date: prompt.run_date, responses: read.responses }, now);
    } catch (err) {
      // A reply that leaves a required question unanswered is not recorded (nothing was written): the person is told
      // which, and can answer by replying to that note (it finds the same prompt) or on the web.
      if (!(err instanceof IncompleteAnswer)) throw err;
      const { url, row } = link();
      await storeAnswerTokens(trx, [row]);
      const reply = newReplyIdentity(deps.config.inboundEmailDomain, prompt.uuid);
      await storeReplyKeys(trx, reply.keys);
      const message = incompleteReplyEmail({
        to: person.email, checkinName: checkin.name, date: prompt.run_date, unanswered: err.questions, questions: questions.length, split: read.split, parts: read.parts,
        reply: text, url, replyTo: reply.address, messageId: reply.messageId, inReplyTo: mail.messageId,
      });
      await enqueueEmail(trx, { organizationUuid: checkin.organization_uuid, kind: 'checkin.reply_incomplete', message }, now);
      return 'incomplete';
    }
    await trx('checkin_prompts').where({ uuid: prompt.uuid }).update({ reply_written_at: written, reply_saved_at: now.toISOString() });
    await markPromptAnswered(trx, deps.config, { checkin, person: author, date: prompt.run_date }, now);
    if (read.split) return 'saved';
    const { url, row } = link();
    await storeAnswerTokens(trx, [row]);
    const message = unsplitReplyEmail({ to: person.email, checkinName: checkin.name, date: prompt.run_date, questions: questions.length, parts: read.parts, url, inReplyTo: mail.messageId });
    await enqueueEmail(trx, { organizationUuid: checkin.organization_uuid, kind: 'checkin.reply_read', message }, now);
    return 'saved_whole';
  });
}
