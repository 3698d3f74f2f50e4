import { fullName } from '../../../lib/names.ts';
import { readJson } from '../../../lib/json.ts';
import type { AnswerView } from '../../checkin-runs/answer-service.ts';
import { RESOLVED } from '../../checkin-runs/answer-service.ts';
import { questionNotes } from '../../checkin-runs/chat-answers.ts';
import { blockerLines } from '../../checkin-runs/messages.ts';
import { MOOD_FACES, kindOf, scaleSteps } from '../../checkins/question-kinds.ts';
import type { ChatAnswerRef } from '../../checkin-runs/chat-answers.ts';
import type { AnswerValue } from '../../checkins/response-parts.ts';
import type { PlatformBody, PromptCard, ReportCard, ReportEntry } from '../../chat-platform/platform.ts';
import type { QuestionRow } from '../../../db/tables.ts';

/**
 * Google Chat messages of a Chat app (cardsV2) from the platform-neutral cards, and the answer dialog. The prompt's
 * "Answer" button opens the dialog (`OPEN_DIALOG`: Chat asks the app for it, events.ts); the dialog holds one
 * input per question (`q.<question uuid>`, as the web page's form names them), pre-filled with the day's answers,
 * and "Save" sends them back with what they answer. Google Chat's text takes a little HTML: `<b>`, `<i>`; people's
 * words are escaped.
 */
export const OPEN_ANSWER = 'rollcall_answer';
export const SAVE_ANSWER = 'rollcall_save';
const TEXT_MAX = 3000;

export const esc = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const cut = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const paragraph = (html: string) => ({ textParagraph: { text: cut(html, TEXT_MAX) } });
const params = (values: Record<string, string>) => Object.entries(values).map(([key, value]) => ({ key, value }));

const card = (id: string, header: { title: string; subtitle?: string }, widgets: Record<string, unknown>[]) => ({ cardId: id, card: { header: { title: cut(header.title, 200), ...(header.subtitle ? { subtitle: header.subtitle } : {}) }, sections: [{ widgets }] } });

/** The prompt: the questions, "Answer" (opens the dialog) and a link to the web page; once answered, "Answered ✓" with "Edit". */
export function promptMessage(prompt: PromptCard, text: string, reminder: boolean): PlatformBody {
  const answer = (label: string) => ({ text: label, onClick: { action: { function: OPEN_ANSWER, interaction: 'OPEN_DIALOG', parameters: params(prompt.test ? { t: prompt.prompt_uuid } : { p: prompt.prompt_uuid }) } } });
  const web = (label: string) => ({ text: label, onClick: { openLink: { url: prompt.url } } });
  const title = `${reminder ? '⏰ A reminder: ' : ''}${prompt.checkin_name}`;
  if (prompt.answered) {
    return {
      text: `${prompt.checkin_name} (${prompt.date}): answered ✓`,
      cardsV2: [card('prompt', { title: prompt.checkin_name, subtitle: prompt.date }, [
        paragraph('Answered ✓'),
        paragraph(prompt.test ? '<i>A test prompt: nothing was saved.</i>' : '<i>You can change your answers until the report goes out.</i>'),
        { buttonList: { buttons: [answer('Edit'), web('Edit on the web')] } },
      ])],
    };
  }
  const widgets: Record<string, unknown>[] = [];
  if (prompt.intro) widgets.push(paragraph(esc(prompt.intro)));
  widgets.push(paragraph(prompt.questions.map((q, i) => `${i + 1}. ${esc(q.text)}${q.hint ? ` <i>(${esc(q.hint)})</i>` : ''}`).join('<br>')));
  if (prompt.carry?.length) widgets.push(paragraph(`<i>${prompt.carry.map(esc).join('<br>')}</i>`));
  widgets.push({ buttonList: { buttons: [answer('Answer'), web('Answer on the web')] } });
  if (prompt.outro) widgets.push(paragraph(esc(prompt.outro)));
  return { text, cardsV2: [card('prompt', { title, subtitle: prompt.date }, widgets)] };
}

const answerText = (value: unknown): string => (Array.isArray(value) ? value.join(', ') : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value));

function entryText(entry: ReportEntry, name: string): string {
  const lines = [`<b>${esc(name)}</b>${entry.hasIssue ? ' ⛔ <b>blocked</b>' : ''}`];
  for (const a of entry.answers) lines.push(`<i>${esc(a.question)}</i>`, esc(answerText(a.response)));
  return lines.join('<br>');
}

/** The report: a paragraph per person (blockers marked), then who has not answered and who is away. */
export function reportMessage(r: ReportCard, text: string): PlatformBody {
  const widgets: Record<string, unknown>[] = [];
  const total = r.answered.length + r.missing.length;
  const named = (entry: ReportEntry, i: number) => paragraph(entryText(entry, r.anonymous ? `Answer ${i + 1}` : fullName(entry.person)));
  widgets.push(...r.answered.slice(0, 80).map(named));
  if (r.answered.length > 80) widgets.push(paragraph(`<i>…and ${r.answered.length - 80} more answers in the report on the web.</i>`));
  if (r.late) widgets.push(paragraph(`<b>Answered for ${r.late.date} after that report:</b>`), ...r.late.answered.slice(0, 20).map(named));
  const names = (people: ReportCard['missing']) => (r.anonymous ? String(people.length) : esc(people.map(fullName).join(', ')));
  if (r.missing.length) widgets.push(paragraph(`<b>Not answered yet:</b> ${names(r.missing)}`));
  if (r.away.length) widgets.push(paragraph(`<b>Away:</b> ${names(r.away)}`));
  if (r.holiday?.length) widgets.push(paragraph(`<b>Holiday:</b> ${names(r.holiday)}`));
  if (r.blockers?.length) widgets.push(paragraph(`<b>Open blockers</b><br>${blockerLines(r).map(esc).join('<br>')}`));
  const subtitle = r.single ? r.date : `${r.date} · ${r.answered.length} of ${total} answered${r.away.length ? `, ${r.away.length} away` : ''}`;
  return { text, cardsV2: [card('report', { title: r.checkinName, subtitle }, widgets.length ? widgets : [paragraph('Nobody has answered.')])] };
}

function inputs(view: AnswerView, q: QuestionRow, value: AnswerValue | undefined): Record<string, unknown>[] {
  const name = `q.${q.uuid}`;
  const label = cut(q.question, 200);
  const { hint } = questionNotes(view, q);
  const kind = kindOf(q);
  const steps = scaleSteps(q);
  if (q.question_type === 'multiple_choice' || q.question_type === 'boolean' || steps.length) {
    const choices = q.question_type === 'boolean' ? [{ label: 'Yes', value: 'yes' }, { label: 'No', value: 'no' }]
      : steps.length ? steps.map((n) => ({ label: kind.presentation === 'mood' ? `${MOOD_FACES[n - 1]} ${n}` : String(n), value: String(n) }))
        : readJson<{ label: string; value: string }[]>(q.choices, []);
    const picked = (v: unknown) => (typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v));
    const chosen = (c: { value: string }) => (Array.isArray(value) ? value.includes(c.value) : value !== undefined && picked(value) === c.value);
    const type = q.question_type === 'multiple_choice' && kind.multiple ? 'CHECK_BOX' : 'RADIO_BUTTON';
    // A selection input has no hint text: a paragraph above it says how to answer.
    return [
      ...(hint ? [paragraph(`<i>${esc(hint)}</i>`)] : []),
      { selectionInput: { name, label, type, items: choices.slice(0, 100).map((c) => ({ text: cut(c.label, 200), value: c.value, selected: chosen(c) })) } },
    ];
  }
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).slice(0, TEXT_MAX) : undefined;
  return [{ textInput: { name, label, type: q.question_type === 'numeric' ? 'SINGLE_LINE' : 'MULTIPLE_LINE', ...(text ? { value: text } : {}), ...(hint ? { hintText: cut(hint, 200) } : {}) } }];
}

/** The dialog of one check-in's day: an input per question, filled with the day's answers, and "Save". */
export function answerDialog(view: AnswerView, ref: ChatAnswerRef): Record<string, unknown> {
  const widgets: Record<string, unknown>[] = [paragraph(`<b>${esc(view.checkin.name)}</b> — ${view.date}${view.answered ? ' · you answered; saving changes it' : ''}`)];
  if (view.carry.blockers.length) {
    const items = view.carry.blockers.slice(0, 20).map((b) => ({ text: cut(`Resolved: ${b.text} (since ${b.opened_on})`, 200), value: b.uuid, selected: false }));
    widgets.push({ selectionInput: { name: RESOLVED, label: 'Still blocked?', type: 'CHECK_BOX', items } });
  }
  widgets.push(...view.questions.slice(0, 90).flatMap((q) => inputs(view, q, view.answers.get(q.uuid))));
  const save = { text: 'Save', onClick: { action: { function: SAVE_ANSWER, parameters: params({ c: ref.checkin, d: ref.date, ...(ref.prompt ? { p: ref.prompt } : {}) }) } } };
  return dialog({ sections: [{ widgets }], fixedFooter: { primaryButton: save } });
}

/** The test prompt's dialog: one question; nothing is saved. */
export function testDialog(messageUuid: string): Record<string, unknown> {
  const save = { text: 'Save', onClick: { action: { function: SAVE_ANSWER, parameters: params({ t: messageUuid }) } } };
  return dialog({ sections: [{ widgets: [{ textInput: { name: 'q.test', label: 'How is your day going? (A test: nothing is saved.)', type: 'MULTIPLE_LINE' } }] }], fixedFooter: { primaryButton: save } });
}

const dialog = (body: Record<string, unknown>) => ({ actionResponse: { type: 'DIALOG', dialogAction: { dialog: { body } } } });

/** Closes the dialog with a note (OK), or keeps it open with the problem (INVALID_ARGUMENT). */
export const dialogStatus = (statusCode: 'OK' | 'INVALID_ARGUMENT', message: string) => ({ actionResponse: { type: 'DIALOG', dialogAction: { actionStatus: { statusCode, userFacingMessage: cut(message, 1000) } } } });
