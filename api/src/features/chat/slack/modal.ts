import { readJson } from '../../../lib/json.ts';
import type { AnswerView, FormValues } from '../../checkin-runs/answer-service.ts';
import { RESOLVED } from '../../checkin-runs/answer-service.ts';
import { questionNotes } from '../../checkin-runs/chat-answers.ts';
import { MOOD_FACES, kindOf, scaleSteps } from '../../checkins/question-kinds.ts';
import type { ChatAnswerRef } from '../../checkin-runs/chat-answers.ts';
import type { AnswerValue } from '../../checkins/response-parts.ts';
import type { QuestionRow } from '../../../db/tables.ts';
import { esc } from './blocks.ts';

/**
 * The answer modal (views.open): one input per question, by its type — several lines of text, check boxes (or a
 * multi-select past 10 choices) for multiple choice, yes/no radio buttons, a number — pre-filled with the day's
 * answers. `private_metadata` says what it answers; Slack hands it back with the submission, unchanged.
 */
export const ANSWER_CALLBACK = 'rollcall_answer';
const INPUT = 'value';
/** Slack's limits: a text input holds 3,000 characters, a title 24, a label 2,000, an option's text 75. */
const TEXT_MAX = 3000;

const plain = (text: string, max: number) => ({ type: 'plain_text', text: text.length <= max ? text : `${text.slice(0, max - 1)}…`, emoji: true });
export const blockId = (questionUuid: string): string => `q.${questionUuid}`;

/** What a modal answers: a check-in's day (and the prompt that asked), or a test prompt's message. */
export type ModalSubject = { ref: ChatAnswerRef } | { test: string };

export function subjectOf(metadata: unknown): ModalSubject | null {
  const m = readJson<Record<string, unknown>>(typeof metadata === 'string' ? metadata : '', {});
  if (typeof m.t === 'string' && /^[0-9a-f-]{36}$/.test(m.t)) return { test: m.t };
  if (typeof m.c === 'string' && /^[0-9a-f-]{36}$/.test(m.c) && typeof m.d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(m.d)) {
    return { ref: { checkin: m.c, date: m.d, prompt: typeof m.p === 'string' && /^[0-9a-f-]{36}$/.test(m.p) ? m.p : null } };
  }
  return null;
}

const metadataOf = (subject: ModalSubject): string =>
  JSON.stringify('test' in subject ? { t: subject.test } : { c: subject.ref.checkin, d: subject.ref.date, ...(subject.ref.prompt ? { p: subject.ref.prompt } : {}) });

/** One pick among options: radio buttons for up to 10, else a menu. */
function single(options: { text: unknown; value: string }[], chosen: { text: unknown; value: string } | undefined): Record<string, unknown> {
  return options.length <= 10
    ? { type: 'radio_buttons', action_id: INPUT, options, ...(chosen ? { initial_option: chosen } : {}) }
    : { type: 'static_select', action_id: INPUT, placeholder: plain('Choose', 150), options: options.slice(0, 100), ...(chosen ? { initial_option: chosen } : {}) };
}

function element(q: QuestionRow, value: AnswerValue | undefined): Record<string, unknown> {
  const choices = readJson<{ label: string; value: string }[]>(q.choices, []);
  const option = (c: { label: string; value: string }) => ({ text: plain(c.label, 75), value: c.value.slice(0, 150) });
  const kind = kindOf(q);
  if (q.question_type === 'multiple_choice' && !kind.multiple) return single(choices.map(option), choices.filter((c) => c.value === value || (Array.isArray(value) && value[0] === c.value)).map(option)[0]);
  if (q.question_type === 'multiple_choice') {
    const chosen = choices.filter((c) => Array.isArray(value) && value.includes(c.value)).map(option);
    return choices.length <= 10
      ? { type: 'checkboxes', action_id: INPUT, options: choices.map(option), ...(chosen.length ? { initial_options: chosen } : {}) }
      : { type: 'multi_static_select', action_id: INPUT, placeholder: plain('Choose', 150), options: choices.slice(0, 100).map(option), ...(chosen.length ? { initial_options: chosen } : {}) };
  }
  const steps = scaleSteps(q);
  if (steps.length) {
    const options = steps.map((n) => ({ text: plain(kind.presentation === 'mood' ? `${MOOD_FACES[n - 1]} ${n}` : String(n), 75), value: String(n) }));
    return single(options, options.find((o) => o.value === String(value)));
  }
  if (q.question_type === 'boolean') {
    const options = [{ text: plain('Yes', 75), value: 'yes' }, { text: plain('No', 75), value: 'no' }];
    return { type: 'radio_buttons', action_id: INPUT, options, ...(typeof value === 'boolean' ? { initial_option: options[value ? 0 : 1] } : {}) };
  }
  if (q.question_type === 'numeric') {
    return {
      type: 'number_input', action_id: INPUT, is_decimal_allowed: true, ...(typeof value === 'number' ? { initial_value: String(value) } : {}),
      ...(kind.min !== null ? { min_value: String(kind.min) } : {}), ...(kind.max !== null ? { max_value: String(kind.max) } : {}),
    };
  }
  const text = typeof value === 'string' ? value.slice(0, TEXT_MAX) : undefined;
  return { type: 'plain_text_input', action_id: INPUT, multiline: true, max_length: TEXT_MAX, ...(text ? { initial_value: text } : {}) };
}

/** The modal of one check-in's day: its questions as inputs, filled with what the person answered that day. */
export function answerModal(view: AnswerView, ref: ChatAnswerRef): Record<string, unknown> {
  const blocks: Record<string, unknown>[] = [{ type: 'context', elements: [{ type: 'mrkdwn', text: `${view.date}${view.answered ? ' · you answered; saving changes it' : ''}` }] }];
  if (view.carry.blockers.length) {
    const options = view.carry.blockers.slice(0, 10).map((b) => ({ text: plain(`Resolved: ${b.text} (since ${b.opened_on})`, 75), value: b.uuid }));
    blocks.push({ type: 'input', block_id: RESOLVED, optional: true, label: plain('Still blocked?', 2000), element: { type: 'checkboxes', action_id: INPUT, options } });
  }
  for (const q of view.questions.slice(0, 90)) {
    const { hint, required } = questionNotes(view, q);
    blocks.push({
      type: 'input', block_id: blockId(q.uuid), optional: !required, label: plain(q.question, 2000), element: element(q, view.answers.get(q.uuid)),
      ...(hint ? { hint: plain(hint, 2000) } : {}),
    });
  }
  return {
    type: 'modal',
    callback_id: ANSWER_CALLBACK,
    private_metadata: metadataOf({ ref }),
    title: plain(view.checkin.name, 24),
    submit: plain('Save', 24),
    close: plain('Cancel', 24),
    blocks,
  };
}

/** A modal that only says something (the answer can no longer change, the check-in is gone, who you are is unknown). */
export function noticeModal(title: string, text: string): Record<string, unknown> {
  return { type: 'modal', title: plain(title, 24), close: plain('Close', 24), blocks: [{ type: 'section', text: { type: 'mrkdwn', text: esc(text) } }] };
}

export const TEST_QUESTION = 'q.test';

/** The test prompt's modal: one question, and nothing is saved. */
export function testModal(messageUuid: string): Record<string, unknown> {
  return {
    type: 'modal',
    callback_id: ANSWER_CALLBACK,
    private_metadata: metadataOf({ test: messageUuid }),
    title: plain('Rollcall test', 24),
    submit: plain('Save', 24),
    close: plain('Cancel', 24),
    blocks: [{ type: 'input', block_id: TEST_QUESTION, optional: true, label: plain('How is your day going? (A test: nothing is saved.)', 2000), element: { type: 'plain_text_input', action_id: INPUT, multiline: true } }],
  };
}

/**
 * The submitted inputs as the web page's form values (`q.<uuid>` → values), so the answers go through the same
 * reading (answer-service.ts formAnswers). Anything that is not an input of ours is ignored.
 */
export function formValuesOf(state: unknown): FormValues {
  const values: FormValues = new Map();
  const blocks = (state as { values?: unknown })?.values;
  if (typeof blocks !== 'object' || blocks === null) return values;
  for (const [id, actions] of Object.entries(blocks)) {
    if ((!id.startsWith('q.') && id !== RESOLVED) || typeof actions !== 'object' || actions === null || !Object.hasOwn(actions, INPUT)) continue;
    const input = (actions as Record<string, unknown>)[INPUT] as Record<string, unknown> | null;
    if (!input || typeof input !== 'object') continue;
    const list: string[] = [];
    const add = (v: unknown) => typeof v === 'string' && !v.includes('\u0000') && list.push(v);
    add(input.value);
    add((input.selected_option as { value?: unknown } | null)?.value);
    if (Array.isArray(input.selected_options)) for (const o of input.selected_options) add((o as { value?: unknown } | null)?.value);
    values.set(id, list);
  }
  return values;
}
