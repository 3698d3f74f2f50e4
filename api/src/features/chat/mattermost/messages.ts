import { fullName } from '../../../lib/names.ts';
import { blockerLines } from '../../checkin-runs/messages.ts';
import type { ChatPost, PlatformBody, PromptCard, ReportCard, ReportEntry } from '../../chat-platform/platform.ts';

/**
 * Mattermost posts: Markdown `message`, and for a prompt a message attachment with the "Answer" button. Pure
 * functions of the platform-neutral cards; the button carries only what it answers (`rollcall_value`), and
 * platform.ts's `send` turns it into the integration (our URL, and a context signed with the connection's secret)
 * just before posting. Mattermost's limit: a post holds 16,383 characters.
 */
const POST_MAX = 16_383;

/** The action id of the "Answer" and "Edit" buttons (Mattermost wants letters and digits). */
export const ANSWER_ACTION = 'rollcallanswer';

/** Markdown special characters of a name or a question, escaped. */
export const md = (text: string): string => text.replace(/([\\`*_~[\]#<>|])/g, '\\$1');
const cut = (text: string): string => (text.length <= POST_MAX ? text : `${text.slice(0, POST_MAX - 1)}…`);

/** What an "Answer" button answers: a prompt (`p:`), a check-in of today (`c:`), or a test prompt (`t:`). */
export const answerValue = (ref: { prompt?: string; checkin?: string; test?: string }): string => (ref.prompt ? `p:${ref.prompt}` : ref.test ? `t:${ref.test}` : `c:${ref.checkin}`);

const answerButton = (name: string, value: string, primary: boolean) => ({ id: ANSWER_ACTION, name, type: 'button', ...(primary ? { style: 'primary' } : {}), rollcall_value: value });

export function postBody(post: ChatPost): PlatformBody {
  const links = post.buttons.map((b) => `[${md(b.text)}](${b.url})`).join(' · ');
  const image = post.imageUrl ? `![image](${post.imageUrl})` : '';
  return { message: cut([post.text, image, links].filter(Boolean).join('\n\n')) };
}

/** The prompt direct message: the questions and "Answer" (opens the dialog), a link to the web page; once answered, "Answered ✓" and "Edit". */
export function promptBody(card: PromptCard, reminder: boolean): PlatformBody {
  const title = `**${md(card.checkin_name)}** — ${card.date}`;
  const value = answerValue(card.test ? { test: card.prompt_uuid } : { prompt: card.prompt_uuid });
  if (card.answered) {
    return {
      message: `${title}\nAnswered ✓`,
      props: { attachments: [{ text: `${card.test ? 'A test prompt: nothing was saved.' : 'You can change your answers until the report goes out.'} [Edit on the web](${card.url})`, actions: [answerButton('Edit', value, false)] }] },
    };
  }
  const lines = [`${reminder ? '⏰ A reminder: ' : ''}${title}`];
  if (card.intro) lines.push(md(card.intro));
  lines.push(...card.questions.map((q, i) => `${i + 1}. ${md(q.text)}${q.hint ? ` _(${md(q.hint)})_` : ''}`));
  if (card.carry?.length) lines.push('', ...card.carry.map(md));
  if (card.outro) lines.push(md(card.outro));
  return {
    message: cut(lines.join('\n')),
    props: { attachments: [{ text: `[Answer on the web](${card.url})`, actions: [answerButton('Answer', value, true)] }] },
  };
}

const answerText = (value: unknown): string => (Array.isArray(value) ? value.join(', ') : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value));

function entryText(entry: ReportEntry, name: string): string {
  const lines = [`#### ${md(name)}${entry.hasIssue ? ' ⛔ **blocked**' : ''}`];
  for (const a of entry.answers) lines.push(`*${md(a.question)}*`, ...answerText(a.response).split('\n').map((l) => `> ${l}`));
  return lines.join('\n');
}

/** The report: a heading, then a part per person (blockers marked), who has not answered and who is away. */
export function reportBody(r: ReportCard): PlatformBody {
  const total = r.answered.length + r.missing.length;
  const named = (entry: ReportEntry, i: number) => entryText(entry, r.anonymous ? `Answer ${i + 1}` : fullName(entry.person));
  const names = (people: ReportCard['missing']) => (r.anonymous ? String(people.length) : people.map((p) => md(fullName(p))).join(', '));
  const parts = [`### ${md(r.checkinName)} — ${r.date}`];
  if (!r.single) parts.push(`${r.answered.length} of ${total} answered${r.away.length ? `, ${r.away.length} away` : ''}`);
  parts.push(...r.answered.map(named));
  if (r.late) parts.push(`**Answered for ${r.late.date} after that report:**`, ...r.late.answered.map(named));
  if (r.missing.length) parts.push(`**Not answered yet:** ${names(r.missing)}`);
  if (r.away.length) parts.push(`**Away:** ${names(r.away)}`);
  if (r.holiday?.length) parts.push(`**Holiday:** ${names(r.holiday)}`);
  if (r.blockers?.length) parts.push(`**Open blockers**\n${blockerLines(r).map(md).join('\n')}`);
  return { message: cut(parts.join('\n\n')) };
}
