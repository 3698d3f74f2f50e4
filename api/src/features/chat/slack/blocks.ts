import { fullName } from '../../../lib/names.ts';
import type { ChatPost, HomeCard, PlatformBody, PromptCard, ReportCard, ReportEntry } from '../../chat-platform/platform.ts';
import { blockerLines } from '../../checkin-runs/messages.ts';

/**
 * Slack messages in Block Kit: the prompt direct message (and its "Answered ✓" state), the report, the App Home
 * and plain posts. Pure functions of the platform-neutral cards; Slack's limits (3,000 characters a section, 50
 * blocks a message, 150 characters a header) are kept here.
 */

/** The action of every "Answer" and "Edit" button: its value names what to answer (`p:<prompt>` or `c:<check-in>`). */
export const ANSWER_ACTION = 'rollcall_answer';
const SECTION_MAX = 3000;
const MAX_BLOCKS = 50;

/** Slack mrkdwn: `&`, `<` and `>` are escaped, everything else is kept. */
export const esc = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const cut = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text: cut(text, SECTION_MAX) } });
const context = (text: string) => ({ type: 'context', elements: [{ type: 'mrkdwn', text: cut(text, SECTION_MAX) }] });
const plain = (text: string, max = 75) => ({ type: 'plain_text', text: cut(text, max), emoji: true });

/** What an "Answer" button answers: a prompt (`p:`), a check-in of today (`c:`), or a test prompt (`t:`). */
export const answerValue = (ref: { prompt?: string; checkin?: string; test?: string }): string => (ref.prompt ? `p:${ref.prompt}` : ref.test ? `t:${ref.test}` : `c:${ref.checkin}`);

function button(text: string, value: string, primary = false) {
  return { type: 'button', action_id: ANSWER_ACTION, text: plain(text), value, ...(primary ? { style: 'primary' } : {}) };
}

/** A plain post: its text, an image, link buttons. */
export function postBody(post: ChatPost): PlatformBody {
  const blocks: Record<string, unknown>[] = [section(post.text)];
  if (post.imageUrl) blocks.push({ type: 'image', image_url: post.imageUrl, alt_text: 'image' });
  if (post.buttons.length) {
    blocks.push({
      type: 'actions',
      elements: post.buttons.map((b, i) => ({
        type: 'button',
        action_id: `rollcall_button_${i}`,
        text: { type: 'plain_text', text: b.text },
        url: b.url,
        ...(b.style === 'primary' || b.style === 'danger' ? { style: b.style } : {}),
      })),
    });
  }
  return { text: post.text, blocks };
}

/**
 * The prompt direct message: the questions, "Answer" (opens the modal), a link to the web page, and how to
 * answer in the conversation. Once answered, the same message says so and offers "Edit".
 */
export function promptBody(card: PromptCard, text: string, reminder: boolean): PlatformBody {
  const title = `*${esc(card.checkin_name)}* — ${card.date}`;
  const value = answerValue(card.test ? { test: card.prompt_uuid } : { prompt: card.prompt_uuid });
  if (card.answered) {
    return {
      text: `${card.checkin_name} (${card.date}): answered ✓`,
      blocks: [
        section(`${title}\nAnswered ✓`),
        { type: 'actions', elements: [button('Edit', value), { type: 'button', action_id: 'rollcall_web', text: plain('Edit on the web'), url: card.url }] },
        context(card.test ? 'A test prompt: nothing was saved.' : 'You can change your answers until the report goes out.'),
      ],
    };
  }
  const blocks: Record<string, unknown>[] = [section(`${reminder ? '⏰ A reminder: ' : ''}${title}${card.intro ? `\n${esc(card.intro)}` : ''}`)];
  blocks.push(section(card.questions.map((q, i) => `${i + 1}. ${esc(q.text)}${q.hint ? ` _(${esc(q.hint)})_` : ''}`).join('\n')));
  if (card.carry?.length) blocks.push(context(esc(card.carry.join('\n'))));
  blocks.push({ type: 'actions', elements: [button('Answer', value, true), { type: 'button', action_id: 'rollcall_web', text: plain('Answer on the web'), url: card.url }] });
  if (card.outro) blocks.push(section(esc(card.outro)));
  blocks.push(context('Or reply here, one message per question, starting with the first. `skip` skips a question, `edit` starts again.'));
  return { text, blocks };
}

/** One person's answers as mrkdwn: their name (blockers marked, an answer in part marked not finished), then each question and its answer quoted. */
function entryText(entry: ReportEntry, name: string): string {
  const lines = [`*${esc(name)}*${entry.hasIssue ? '  :no_entry: *blocked*' : ''}${entry.complete ? '' : '  _(not finished)_'}`];
  for (const a of entry.answers) {
    lines.push(`_${esc(a.question)}_`);
    lines.push(...answerText(a.response).split('\n').map((l) => `>${esc(l)}`));
  }
  return lines.join('\n');
}

const answerText = (value: unknown): string => (Array.isArray(value) ? value.join(', ') : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value));

/** Sections of up to 3,000 characters, packing several texts into one when there are more than `room`. */
function packed(texts: string[], room: number): Record<string, unknown>[] {
  if (texts.length <= room) return texts.map(section);
  const sections: string[] = [];
  for (const text of texts) {
    const last = sections.length - 1;
    if (last >= 0 && sections[last].length + text.length + 2 <= SECTION_MAX) sections[last] += `\n\n${text}`;
    else sections.push(cut(text, SECTION_MAX));
  }
  const blocks: Record<string, unknown>[] = sections.slice(0, room).map(section);
  if (sections.length > room) blocks[room - 1] = context(`…and more: ${sections.length - room + 1} more sections are in the report on the web.`);
  return blocks;
}

/** The report: a section per person (blockers marked), then who has not answered and who is away; only complete answers count as answered. */
export function reportBody(r: ReportCard, text: string): PlatformBody {
  const total = r.answered.length + r.missing.length;
  const head: Record<string, unknown>[] = [{ type: 'header', text: plain(`${r.checkinName} — ${r.date}`, 150) }];
  if (!r.single) head.push(context(`${r.answered.filter((e) => e.complete).length} of ${total} answered${r.away.length ? `, ${r.away.length} away` : ''}`));
  const named = (entry: ReportEntry, i: number) => entryText(entry, r.anonymous ? `Answer ${i + 1}` : fullName(entry.person));
  const tail: Record<string, unknown>[] = [];
  const names = (people: ReportCard['missing']) => (r.anonymous ? String(people.length) : people.map((p) => esc(fullName(p))).join(', '));
  if (r.missing.length) tail.push(context(`*Not answered yet:* ${names(r.missing)}`));
  if (r.away.length) tail.push(context(`*Away:* ${names(r.away)}`));
  if (r.holiday?.length) tail.push(context(`*Holiday:* ${names(r.holiday)}`));
  if (r.blockers?.length) tail.push(section(`*Open blockers*\n${esc(blockerLines(r).join('\n'))}`));
  const late = r.late ? [`*Answered for ${r.late.date} after that report:*`, ...r.late.answered.map(named)] : [];
  const texts = [...r.answered.map(named), ...late];
  const room = MAX_BLOCKS - head.length - tail.length - (texts.length ? 1 : 0);
  return { text, blocks: [...head, ...(texts.length ? [{ type: 'divider' }] : []), ...packed(texts, room), ...tail] };
}

/** The App Home tab: today's check-ins and their state, each with its "Answer" or "Edit" button. */
export function homeView(home: HomeCard): PlatformBody {
  const state = { answered: 'Answered ✓', pending: 'Waiting for your answers', closed: 'Answered; the report has gone out' } as const;
  const blocks: Record<string, unknown>[] = [{ type: 'header', text: plain("Today's check-ins", 150) }];
  if (home.checkins.length === 0) blocks.push(section('Nothing to answer today.'));
  for (const c of home.checkins.slice(0, 45)) {
    const row: Record<string, unknown> = section(`*${esc(c.name)}* — ${c.date}\n${state[c.state]}`);
    if (c.state !== 'closed') row.accessory = button(c.state === 'answered' ? 'Edit' : 'Answer', answerValue(c.prompt_uuid ? { prompt: c.prompt_uuid } : { checkin: c.uuid }), c.state === 'pending');
    blocks.push(row);
  }
  blocks.push(context('`/rollcall` opens your next check-in · `/rollcall status` · `/rollcall help`'));
  return { type: 'home', blocks };
}
