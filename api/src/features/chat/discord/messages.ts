import { fullName } from '../../../lib/names.ts';
import type { ChatPost, PlatformBody, PromptCard, ReportCard, ReportEntry } from '../../chat-platform/platform.ts';

/**
 * Discord messages, pure functions of the platform-neutral cards: Markdown `content` (at most 2,000 characters,
 * Discord's limit), buttons in one action row (at most 5; labels 80 characters, link URLs 512), never a ping
 * (`allowed_mentions`). A report longer than one message is several (`messages`), cut between people, each
 * within the limit (messages.test.ts checks it over generated reports).
 */
export const CONTENT_MAX = 2000;
const LABEL_MAX = 80;
const URL_MAX = 512;
const NO_PINGS = { parse: [] as string[] };

/** What an "Answer" button answers (its custom_id): a prompt, or a test prompt from the Admin screen. */
export const answerId = (card: Pick<PromptCard, 'prompt_uuid' | 'test'>): string => `rc:a:${card.test ? 't' : 'p'}:${card.prompt_uuid}`;

/** Markdown special characters of a name or a question, escaped. */
export const md = (text: string): string => text.replace(/([\\`*_~|>#[\]<@])/g, '\\$1');
export const cut = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

type Button = { type: 2; style: number; label: string; custom_id?: string; url?: string };
const actionRow = (buttons: Button[]) => ({ type: 1, components: buttons.slice(0, 5) });
const linkButton = (label: string, url: string): Button | null => (url.length <= URL_MAX && /^https?:\/\//.test(url) ? { type: 2, style: 5, label: cut(label, LABEL_MAX), url } : null);

export function postBody(post: ChatPost): PlatformBody {
  const buttons = post.buttons.map((b) => linkButton(b.text, b.url)).filter((b): b is Button => b !== null);
  return {
    content: cut(post.text, CONTENT_MAX),
    allowed_mentions: NO_PINGS,
    ...(buttons.length ? { components: [actionRow(buttons)] } : {}),
    ...(post.imageUrl ? { embeds: [{ image: { url: post.imageUrl } }] } : {}),
  };
}

/** The prompt direct message: the questions, "Answer" (opens the form) and the web page; once answered, "Answered ✓" and "Edit". */
export function promptBody(card: PromptCard, reminder: boolean): PlatformBody {
  const title = `**${md(card.checkin_name)}** — ${card.date}`;
  const web = (label: string) => linkButton(label, card.url);
  if (card.answered) {
    const note = card.test ? 'A test prompt: nothing was saved.' : 'You can change your answers until the report goes out.';
    return {
      content: `${title}\nAnswered ✓\n-# ${note}`,
      allowed_mentions: NO_PINGS,
      components: [actionRow([{ type: 2, style: 2, label: 'Edit', custom_id: answerId(card) }, web('Edit on the web')].filter((b): b is Button => b !== null))],
    };
  }
  const lines = [`${reminder ? '⏰ A reminder: ' : ''}${title}`];
  if (card.intro) lines.push(md(card.intro));
  lines.push(...card.questions.map((q, i) => `${i + 1}. ${md(q.text)}`));
  if (card.outro) lines.push(md(card.outro));
  return {
    content: cut(lines.join('\n'), CONTENT_MAX),
    allowed_mentions: NO_PINGS,
    components: [actionRow([{ type: 2, style: 1, label: 'Answer', custom_id: answerId(card) }, web('Answer on the web')].filter((b): b is Button => b !== null))],
  };
}

const answerText = (value: unknown): string => (Array.isArray(value) ? value.join(', ') : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value));

function entryText(entry: ReportEntry, name: string): string {
  const lines = [`### ${md(name)}${entry.hasIssue ? ' ⛔ **blocked**' : ''}${entry.complete ? '' : ' (not finished)'}`];
  for (const a of entry.answers) lines.push(`**${md(a.question)}**`, ...answerText(a.response).split('\n').map((l) => `> ${l}`));
  return lines.join('\n');
}

/**
 * Sections into messages of at most CONTENT_MAX characters: as many whole sections as fit in each; a section
 * longer than a message alone is cut between its lines, and a line longer than a message is cut itself.
 */
export function packMessages(sections: string[]): string[] {
  const messages: string[] = [];
  let current = '';
  const push = (piece: string, separator: string) => {
    if (current && current.length + separator.length + piece.length <= CONTENT_MAX) current += separator + piece;
    else {
      if (current) messages.push(current);
      current = piece;
    }
  };
  for (const section of sections) {
    if (section.length <= CONTENT_MAX) {
      push(section, '\n\n');
      continue;
    }
    section.split('\n').forEach((line, i) => push(cut(line, CONTENT_MAX), i === 0 ? '\n\n' : '\n'));
  }
  if (current || messages.length === 0) messages.push(current || '\u200b');
  return messages;
}

/**
 * The report: a heading, then a part per person (blockers marked), who has not answered and who is away; one message
 * or several. Only complete answers count as answered; an answer in part is shown, marked "(not finished)".
 */
export function reportBody(r: ReportCard): PlatformBody {
  const total = r.answered.length + r.missing.length;
  const named = (entry: ReportEntry, i: number) => entryText(entry, r.anonymous ? `Answer ${i + 1}` : fullName(entry.person));
  const names = (people: ReportCard['missing']) => (r.anonymous ? String(people.length) : people.map((p) => md(fullName(p))).join(', '));
  const sections = [`## ${md(r.checkinName)} — ${r.date}${r.single ? '' : `\n${r.answered.filter((e) => e.complete).length} of ${total} answered${r.away.length ? `, ${r.away.length} away` : ''}`}`];
  sections.push(...r.answered.map(named));
  if (r.late) sections.push(`**Answered for ${r.late.date} after that report:**`, ...r.late.answered.map(named));
  if (r.missing.length) sections.push(`**Not answered yet:** ${names(r.missing)}`);
  if (r.away.length) sections.push(`**Away:** ${names(r.away)}`);
  return { messages: packMessages(sections).map((content) => ({ content, allowed_mentions: NO_PINGS })) };
}
