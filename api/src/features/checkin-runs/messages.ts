import type { EmailMessage } from '../../outbox/deliveries.ts';
import { fullName } from '../../lib/names.ts';
import type { CheckinRow, QuestionRow } from '../../db/tables.ts';
import type { LoopSettings } from './schedule.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { ReportCard, ReportEntry } from '../chat-platform/platform.ts';
import type { Language } from '../../lib/personal-settings.ts';
import { say } from './message-texts.ts';
import { questionWithHint } from '../checkins/question-kinds.ts';

/**
 * What the loop says, in text and HTML: the prompt and its reminders, the note on how a reply was read, and
 * the team report. Pure functions; the jobs put them into the outbox.
 */


const paragraphs = (text: string) => text.split(/\n{2,}/).map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('\n');

export interface PromptContent {
  checkin: Pick<CheckinRow, 'name'>;
  settings: Pick<LoopSettings, 'intro' | 'outro'>;
  questions: QuestionRow[];
  date: string;
  url: string;
  /** The person's language (PATCH /v1/me/); English when absent. */
  lang?: Language;
  /** What the person's earlier days carry over: open blockers ("Still blocked by …?") and last time's answers (carry-over.ts). */
  carry?: string[];
}

/** Each question numbered, with how to answer it and when it is asked. */
const questionLines = (questions: QuestionRow[]) => questions.map((q, i) => `${i + 1}. ${questionWithHint(q, questions)}`);

const opening = (p: PromptContent, reminder: boolean) => say(p.lang ?? 'en', reminder ? 'reminder' : 'prompt', { name: p.checkin.name, date: p.date });

/** The text a prompt shows on every channel (e-mail body, Slack direct message), in the person's language. */
export function promptText(p: PromptContent, reminder = false): string {
  return [
    opening(p, reminder),
    p.settings.intro,
    questionLines(p.questions).join('\n'),
    p.carry?.length ? p.carry.join('\n') : '',
    `${say(p.lang ?? 'en', 'answerOnWeb')}: ${p.url}`,
    p.settings.outro,
  ].filter((part): part is string => Boolean(part)).join('\n\n');
}

/** The prompt (or a reminder) as an e-mail: replying to it answers (one paragraph per question, or numbered lines). */
export function promptEmail(p: PromptContent & { to: string; replyTo: string; messageId: string; inReplyTo?: string }, reminder = false): EmailMessage {
  const lang = p.lang ?? 'en';
  const howToReply = say(lang, 'howToReply');
  const text = `${promptText(p, reminder)}\n\n${howToReply}\n`;
  const html = [
    `<p>${escapeHtml(opening(p, reminder))}</p>`,
    p.settings.intro ? paragraphs(p.settings.intro) : '',
    `<ol>${p.questions.map((q) => `<li>${escapeHtml(questionWithHint(q, p.questions))}</li>`).join('')}</ol>`,
    p.carry?.length ? `<p>${p.carry.map(escapeHtml).join('<br>')}</p>` : '',
    `<p><a href="${escapeHtml(p.url)}">${escapeHtml(say(lang, 'answerOnWeb'))}</a></p>`,
    `<p>${escapeHtml(howToReply)}</p>`,
    p.settings.outro ? paragraphs(p.settings.outro) : '',
  ].filter(Boolean).join('\n');
  return {
    to: [p.to],
    subject: say(lang, reminder ? 'reminderSubject' : 'promptSubject', { name: p.checkin.name, date: p.date }),
    text,
    html,
    replyTo: p.replyTo,
    messageId: p.messageId,
    ...(p.inReplyTo ? { headers: { 'In-Reply-To': p.inReplyTo, References: p.inReplyTo } } : {}),
  };
}

/** The note sent when a reply did not split into one answer per question: it was saved whole as the first. */
export function unsplitReplyEmail(p: { to: string; checkinName: string; date: string; questions: number; parts: number; url: string; inReplyTo: string | null }): EmailMessage {
  const text = [
    `We saved your reply to ${p.checkinName} for ${p.date}, but it did not split into ${p.questions} answers (we found ${p.parts}), so all of it is the answer to the first question.`,
    'To answer question by question, reply with one paragraph per question in order, or numbered lines (1. 2. 3.), or answer on the web:',
    p.url,
  ].join('\n\n');
  return {
    to: [p.to],
    subject: `How we read your reply: ${p.checkinName} for ${p.date}`,
    text: `${text}\n`,
    html: text.split('\n\n').map((line) => (line === p.url ? `<p><a href="${escapeHtml(p.url)}">${escapeHtml(p.url)}</a></p>` : `<p>${escapeHtml(line)}</p>`)).join('\n'),
    ...(p.inReplyTo ? { headers: { 'In-Reply-To': p.inReplyTo, References: p.inReplyTo } } : {}),
  };
}

/**
 * The note sent when a reply left required questions unanswered: nothing was recorded. It names those questions,
 * says how the reply was read, quotes it, and carries a reply address of the prompt's, so replying to it answers.
 */
export function incompleteReplyEmail(p: {
  to: string; checkinName: string; date: string; unanswered: Pick<QuestionRow, 'position' | 'question'>[]; questions: number; split: boolean; parts: number;
  reply: string; url: string; replyTo: string; messageId: string; inReplyTo: string | null;
}): EmailMessage {
  const howRead = p.split
    ? ''
    : p.parts > 1
      ? `It did not split into ${p.questions} answers (we found ${p.parts}), so all of it was read as the answer to the first question.`
      : p.reply === '' ? 'We found no answer in it.' : 'It was read as the answer to the first question.';
  const quoted = p.reply.slice(0, 5_000).split('\n').map((line) => `> ${line}`.trimEnd()).join('\n');
  const intro = `We did not record your reply to ${p.checkinName} for ${p.date}: these required questions have no answer in it.`;
  const questions = p.unanswered.map((q) => `${q.position + 1}. ${q.question}`).join('\n');
  const how = 'Reply to this e-mail with all your answers, one paragraph per question in order (or numbered lines 1. 2. 3.), or answer on the web:';
  const text = [intro, questions, howRead, how, p.url, p.reply === '' ? '' : `Your reply:\n${quoted}`].filter(Boolean).join('\n\n');
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    `<ul>${p.unanswered.map((q) => `<li>${escapeHtml(`${q.position + 1}. ${q.question}`)}</li>`).join('')}</ul>`,
    howRead ? `<p>${escapeHtml(howRead)}</p>` : '',
    `<p>${escapeHtml(how)}</p>`,
    `<p><a href="${escapeHtml(p.url)}">${escapeHtml(p.url)}</a></p>`,
    p.reply === '' ? '' : `<p>Your reply:</p>\n<blockquote>${escapeHtml(p.reply.slice(0, 5_000)).replace(/\n/g, '<br>')}</blockquote>`,
  ].filter(Boolean).join('\n');
  return {
    to: [p.to],
    subject: `Not recorded: your reply to ${p.checkinName} for ${p.date}`,
    text: `${text}\n`,
    html,
    replyTo: p.replyTo,
    messageId: p.messageId,
    ...(p.inReplyTo ? { headers: { 'In-Reply-To': p.inReplyTo, References: p.inReplyTo } } : {}),
  };
}

export type { ReportEntry, ReportPerson } from '../chat-platform/platform.ts';
/** What a report says: the chat card of it, which e-mail shows as text too. */
export type ReportContent = ReportCard;

const answerText = (value: unknown, lang: Language): string => (Array.isArray(value) ? value.join(', ') : typeof value === 'boolean' ? say(lang, value ? 'yes' : 'no') : String(value));

/**
 * The team report as text (chat) and e-mail: each person's answers (co-authored parts are part of them, with
 * their suffix; an answer that leaves a required question unanswered is marked "not finished" and not counted as
 * answered), then who has not answered and who is away. An anonymous check-in names nobody.
 */
export function reportText(r: ReportContent, lang: Language = 'en'): string {
  const total = r.answered.length + r.missing.length;
  const lines = [`${r.checkinName} — ${r.date}`];
  const holiday = r.holiday ?? [];
  if (!r.single) {
    const counts = [
      say(lang, 'counts', { answered: r.answered.filter((e) => e.complete).length, total }),
      r.away.length ? say(lang, 'away', { count: r.away.length }) : '',
      holiday.length ? say(lang, 'onHoliday', { count: holiday.length }) : '',
    ];
    lines.push(`${counts.filter(Boolean).join(', ')}.`);
  }
  const entries = (list: ReportEntry[]) =>
    list.forEach((entry, i) => {
      const marks = [entry.hasIssue ? say(lang, 'blocked') : '', entry.complete ? '' : say(lang, 'notFinished')].filter(Boolean);
      lines.push('', `${r.anonymous ? say(lang, 'answerNumber', { n: i + 1 }) : fullName(entry.person)}${marks.length ? ` (${marks.join(', ')})` : ''}`);
      for (const a of entry.answers) lines.push(`${a.question}`, ...answerText(a.response, lang).split('\n').map((l) => `  ${l}`));
    });
  entries(r.answered);
  const list = (key: 'notAnswered' | 'awayList' | 'holidayList', people: ReportContent['missing']) => {
    if (people.length) lines.push('', `${say(lang, key)}: ${r.anonymous ? people.length : people.map(fullName).join(', ')}`);
  };
  list('notAnswered', r.missing);
  list('awayList', r.away);
  list('holidayList', holiday);
  if (r.blockers?.length) lines.push('', `${say(lang, 'openBlockers')}:`, ...blockerLines(r));
  if (r.late) {
    lines.push('', say(lang, 'late', { date: r.late.date }));
    entries(r.late.answered);
  }
  return lines.join('\n');
}

/** Each open blocker of a report as one line: who (nobody on an anonymous check-in), what, for how long. */
export const blockerLines = (r: ReportContent): string[] =>
  (r.blockers ?? []).map((b) => `- ${r.anonymous ? '' : `${fullName(b.person)}: `}${b.text.replace(/\s+/g, ' ').slice(0, 300)} (${b.days === 1 ? '1 day' : `${b.days} days`})`);

/** The team report as an e-mail to its recipients, in their language. */
export function reportEmail(r: ReportContent, to: string[], lang: Language = 'en'): EmailMessage {
  const text = reportText(r, lang);
  return {
    to,
    subject: say(lang, 'reportSubject', { name: r.checkinName, date: r.date }),
    text: `${text}\n`,
    html: `<pre style="font-family:inherit;white-space:pre-wrap">${escapeHtml(text)}</pre>`,
  };
}
