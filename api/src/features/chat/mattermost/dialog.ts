import { readJson } from '../../../lib/json.ts';
import type { AnswerView, FormValues } from '../../checkin-runs/answer-service.ts';
import { RESOLVED } from '../../checkin-runs/answer-service.ts';
import { questionNotes } from '../../checkin-runs/chat-answers.ts';
import { MOOD_FACES, kindOf, scaleSteps } from '../../checkins/question-kinds.ts';
import type { AnswerValue } from '../../checkins/response-parts.ts';
import type { QuestionRow } from '../../../db/tables.ts';

/**
 * The answer dialog (POST /api/v4/actions/dialogs/open): one element per question, by its type — a text area, a
 * select of the choices (several at once where the server allows), Yes/No radio buttons, a number — pre-filled
 * with the day's answers. Its `state` (requests.ts) says what it answers, signed; Mattermost hands it back with
 * the submission, whose values are read as the web page's form (`q.<uuid>` → values).
 */
export const ANSWER_CALLBACK = 'rollcall_answer';
/** Mattermost's limits: a title 24 characters, an element's label 24, its help text 150, a text area 3,000. */
const TEXT_MAX = 3000;

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
export const elementName = (questionUuid: string): string => `q.${questionUuid}`;

function element(view: AnswerView, q: QuestionRow, index: number, value: AnswerValue | undefined): Record<string, unknown> {
  // The label is short (24 characters): the question in full goes in the help text below the field, with how to
  // answer it, when it is asked and what the person said last time.
  const { hint, required } = questionNotes(view, q);
  const base = { display_name: cut(`${index + 1}. ${q.question}`, 24), name: elementName(q.uuid), optional: !required, help_text: cut(hint ? `${q.question} · ${hint}` : q.question, 150) };
  const kind = kindOf(q);
  if (q.question_type === 'multiple_choice') {
    const choices = readJson<{ label: string; value: string }[]>(q.choices, []);
    const options = choices.slice(0, 100).map((c) => ({ text: cut(c.label, 150), value: c.value }));
    if (!kind.multiple) {
      const picked = typeof value === 'string' ? value : Array.isArray(value) ? value[0] : undefined;
      return { ...base, type: 'select', options, ...(picked ? { default: picked } : {}) };
    }
    const chosen = Array.isArray(value) ? value.filter((v) => choices.some((c) => c.value === v)) : [];
    return { ...base, type: 'select', multiselect: true, options, ...(chosen.length ? { default: chosen.join(',') } : {}) };
  }
  const steps = scaleSteps(q);
  if (steps.length) {
    const options = steps.map((n) => ({ text: kind.presentation === 'mood' ? `${MOOD_FACES[n - 1]} ${n}` : String(n), value: String(n) }));
    return { ...base, type: 'radio', options, ...(typeof value === 'number' ? { default: String(value) } : {}) };
  }
  if (q.question_type === 'boolean') {
    return { ...base, type: 'radio', options: [{ text: 'Yes', value: 'yes' }, { text: 'No', value: 'no' }], ...(typeof value === 'boolean' ? { default: value ? 'yes' : 'no' } : {}) };
  }
  if (q.question_type === 'numeric') return { ...base, type: 'text', subtype: 'number', ...(typeof value === 'number' ? { default: String(value) } : {}) };
  return { ...base, type: 'textarea', max_length: TEXT_MAX, ...(typeof value === 'string' ? { default: value.slice(0, TEXT_MAX) } : {}) };
}

/** The dialog of one check-in's day, filled with what the person answered that day. */
export function answerDialog(view: AnswerView, state: string): Record<string, unknown> {
  return {
    callback_id: ANSWER_CALLBACK,
    title: cut(view.checkin.name, 24),
    introduction_text: `${view.date}${view.answered ? ' · you answered; saving changes it' : ''}`,
    elements: [
      ...view.carry.blockers.slice(0, 5).map((b) => ({
        display_name: 'Still blocked?', name: `${RESOLVED}.${b.uuid}`, type: 'bool', optional: true, placeholder: cut(`Resolved: ${b.text}`, 150), help_text: `Since ${b.opened_on}`,
      })),
      ...view.questions.slice(0, 100).map((q, i) => element(view, q, i, view.answers.get(q.uuid))),
    ],
    submit_label: 'Save',
    notify_on_cancel: false,
    state,
  };
}

/** The test prompt's dialog: one question, and nothing is saved. */
export function testDialog(state: string): Record<string, unknown> {
  return {
    callback_id: ANSWER_CALLBACK,
    title: 'Rollcall test',
    introduction_text: 'A test from the Admin screen: nothing is saved.',
    elements: [{ display_name: 'How is your day going?', name: 'q.test', type: 'textarea', optional: true }],
    submit_label: 'Save',
    state,
  };
}

/** The submission's values as the web page's form values; anything that is not an element of ours is ignored. */
export function formValuesOf(submission: unknown): FormValues {
  const values: FormValues = new Map();
  if (typeof submission !== 'object' || submission === null || Array.isArray(submission)) return values;
  for (const [name, value] of Object.entries(submission)) {
    if (name.startsWith(`${RESOLVED}.`) && (value === true || value === 'true')) values.set(RESOLVED, [...(values.get(RESOLVED) ?? []), name.slice(RESOLVED.length + 1)]);
    if (!name.startsWith('q.')) continue;
    const list = (Array.isArray(value) ? value : [value])
      .map((v) => (typeof v === 'number' ? String(v) : typeof v === 'boolean' ? (v ? 'yes' : 'no') : v))
      .filter((v): v is string => typeof v === 'string' && !v.includes('\u0000'));
    values.set(name, list);
  }
  return values;
}
