import { fullName } from '../../../lib/names.ts';
import type { ChatQuestion, PlatformBody, PromptCard, ReportCard, ReportEntry } from '../../chat-platform/platform.ts';
import { blockerLines } from '../../checkin-runs/messages.ts';

/**
 * Microsoft Teams messages of a bot: Adaptive Cards (version 1.4, what Teams renders) from the platform-neutral
 * cards. The prompt holds one input per question (`q.<question uuid>`, as the web page's form names them) and a
 * "Save" Action.Submit whose data says what it answers; Teams posts the inputs back as a message activity's
 * `value` (activities.ts). Teams refuses a message past about 28 KB: texts are cut and a report lists at most
 * 60 people in full.
 */

/** What an Action.Submit of ours carries: the prompt it answers (`p`) or a test prompt (`t`). */
export const SUBMIT_MARK = 'rollcall_answer';
const TEXT_MAX = 3000;
const REPORT_PEOPLE_MAX = 60;

const cut = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const block = (text: string, extra: Record<string, unknown> = {}) => ({ type: 'TextBlock', text: cut(text, TEXT_MAX), wrap: true, ...extra });

/** A message with one Adaptive Card, and its text for notifications. */
export function cardMessage(body: Record<string, unknown>[], actions: Record<string, unknown>[], text: string): PlatformBody {
  return {
    type: 'message',
    summary: cut(text, 250),
    attachments: [{
      contentType: 'application/vnd.microsoft.card.adaptive',
      content: { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4', body, ...(actions.length ? { actions } : {}) },
    }],
  };
}

type Answer = NonNullable<PromptCard['answers']>[string];

/** The value an input shows for a saved answer, as Teams posts it back (formValuesOf reads it the same way). */
function inputValue(q: ChatQuestion, answer: Answer | undefined): string | number | undefined {
  if (answer === undefined || answer === null) return undefined;
  if (q.type === 'multiple_choice') {
    if (Array.isArray(answer)) return answer.length ? answer.join(',') : undefined;
    return typeof answer === 'string' && answer ? answer : undefined;
  }
  if (q.type === 'boolean') return typeof answer === 'boolean' ? (answer ? 'yes' : 'no') : undefined;
  // A scale is a choice set: its value is the step as text.
  if (q.type === 'numeric') return typeof answer === 'number' ? (q.steps?.length ? String(answer) : answer) : undefined;
  return typeof answer === 'string' && answer ? answer.slice(0, TEXT_MAX) : undefined;
}

/**
 * A question's input: several lines of text, a choice set (several for multiple choice; Yes/No), a number;
 * holding `answer` (the saved one) when given.
 */
export function questionInput(q: ChatQuestion, answer?: Answer): Record<string, unknown> {
  const label = cut(q.hint ? `${q.text} (${q.hint})` : q.text, 2000);
  const value = inputValue(q, answer);
  const common = { id: `q.${q.uuid}`, label, isRequired: q.required, ...(q.required ? { errorMessage: 'An answer is required.' } : {}), ...(value !== undefined ? { value } : {}) };
  if (q.type === 'multiple_choice') {
    // Cards written before `multiple` existed took several picks.
    return { type: 'Input.ChoiceSet', ...common, isMultiSelect: q.multiple ?? true, style: 'expanded', choices: q.choices.slice(0, 100).map((c) => ({ title: cut(c.label, 200), value: c.value })) };
  }
  if (q.type === 'boolean') return { type: 'Input.ChoiceSet', ...common, style: 'expanded', choices: [{ title: 'Yes', value: 'yes' }, { title: 'No', value: 'no' }] };
  if (q.type === 'numeric' && q.steps?.length) {
    return { type: 'Input.ChoiceSet', ...common, style: 'expanded', choices: q.steps.map((n) => ({ title: String(n), value: String(n) })) };
  }
  if (q.type === 'numeric') return { type: 'Input.Number', ...common, ...(q.min !== null && q.min !== undefined ? { min: q.min } : {}), ...(q.max !== null && q.max !== undefined ? { max: q.max } : {}) };
  return { type: 'Input.Text', ...common, isMultiline: true, maxLength: TEXT_MAX };
}

const submitData = (card: PromptCard) => ({ rollcall: SUBMIT_MARK, ...(card.test ? { t: card.prompt_uuid } : { p: card.prompt_uuid }) });

/**
 * The prompt: the check-in and day, the questions as inputs, "Save" and a link to the web page. Once answered,
 * it says so, with "Change my answers" showing the inputs again, filled with the saved answers (Action.ShowCard:
 * no call to Rollcall).
 */
export function promptCard(card: PromptCard, text: string, reminder: boolean): PlatformBody {
  const title = block(`${reminder ? '⏰ A reminder: ' : ''}**${card.checkin_name}** — ${card.date}`, { size: 'Medium', weight: 'Bolder' });
  const inputs = card.questions.slice(0, 50).map((q) => questionInput(q, card.answers?.[q.uuid]));
  const save = { type: 'Action.Submit', title: 'Save', style: 'positive', data: submitData(card) };
  if (card.answered) {
    return cardMessage(
      [block(`**${card.checkin_name}** — ${card.date}`, { size: 'Medium', weight: 'Bolder' }), block('Answered ✓'), block(card.test ? 'A test prompt: nothing was saved.' : 'You can change your answers until the report goes out.', { isSubtle: true, size: 'Small' })],
      [
        { type: 'Action.ShowCard', title: 'Change my answers', card: { type: 'AdaptiveCard', body: inputs, actions: [save] } },
        { type: 'Action.OpenUrl', title: 'Edit on the web', url: card.url },
      ],
      `${card.checkin_name} (${card.date}): answered ✓`,
    );
  }
  const body: Record<string, unknown>[] = [title];
  if (card.intro) body.push(block(card.intro));
  body.push(...inputs);
  if (card.carry?.length) body.push(block(card.carry.join('\n\n'), { isSubtle: true, size: 'Small' }));
  if (card.outro) body.push(block(card.outro, { isSubtle: true }));
  return cardMessage(body, [save, { type: 'Action.OpenUrl', title: 'Answer on the web', url: card.url }], text);
}

const answerText = (value: unknown): string => (Array.isArray(value) ? value.join(', ') : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value));

function entryBlocks(entry: ReportEntry, name: string): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [block(`**${name}**${entry.hasIssue ? ' ⛔ blocked' : ''}`, { separator: true, spacing: 'Medium' })];
  for (const a of entry.answers) {
    blocks.push(block(`_${a.question}_`, { isSubtle: true, spacing: 'Small' }));
    blocks.push(block(answerText(a.response), { spacing: 'None' }));
  }
  return blocks;
}

/** The report: a part per person (blockers marked), then who has not answered and who is away. */
export function reportCard(r: ReportCard, text: string): PlatformBody {
  const body: Record<string, unknown>[] = [block(`**${r.checkinName}** — ${r.date}`, { size: 'Medium', weight: 'Bolder' })];
  const total = r.answered.length + r.missing.length;
  if (!r.single) body.push(block(`${r.answered.length} of ${total} answered${r.away.length ? `, ${r.away.length} away` : ''}`, { isSubtle: true }));
  const named = (entry: ReportEntry, i: number) => entryBlocks(entry, r.anonymous ? `Answer ${i + 1}` : fullName(entry.person));
  r.answered.slice(0, REPORT_PEOPLE_MAX).forEach((entry, i) => body.push(...named(entry, i)));
  if (r.answered.length > REPORT_PEOPLE_MAX) body.push(block(`…and ${r.answered.length - REPORT_PEOPLE_MAX} more answers in the report on the web.`, { isSubtle: true }));
  if (r.late) {
    body.push(block(`**Answered for ${r.late.date} after that report:**`, { separator: true }));
    r.late.answered.slice(0, 20).forEach((entry, i) => body.push(...named(entry, i)));
  }
  const names = (people: ReportCard['missing']) => (r.anonymous ? String(people.length) : cut(people.map(fullName).join(', '), TEXT_MAX - 40));
  if (r.missing.length) body.push(block(`**Not answered yet:** ${names(r.missing)}`, { separator: true }));
  if (r.away.length) body.push(block(`**Away:** ${names(r.away)}`));
  if (r.holiday?.length) body.push(block(`**Holiday:** ${names(r.holiday)}`));
  if (r.blockers?.length) body.push(block(`**Open blockers**\n\n${blockerLines(r).join('\n\n')}`, { separator: true }));
  return cardMessage(body, [], text);
}
