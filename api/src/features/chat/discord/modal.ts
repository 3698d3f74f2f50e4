import { readJson } from '../../../lib/json.ts';
import type { AnswerView, FormValues } from '../../checkin-runs/answer-service.ts';
import type { ChatAnswerRef } from '../../checkin-runs/chat-answers.ts';
import type { QuestionRow } from '../../../db/tables.ts';
import { cut } from './messages.ts';

/**
 * The answer form: Discord modals (interaction response type 9) hold at most 5 text inputs, so a check-in of more
 * questions is answered over several, "Continue (2/3)" between them; the parts submitted so far wait in
 * `chat_answer_drafts` until the last saves the whole answer. Every input is a text input (Discord's modal limit):
 * a yes/no question takes "Yes" or "No", a multiple-choice one the choices one per line, a numeric one a number;
 * `formValuesOf` reads them as the web page's form (`q.<uuid>` → values), naming what it cannot read.
 *
 * What a modal or button answers travels in its custom_id (at most 100 characters), which Discord hands back in
 * the signed interaction: `rc:m:<checkin>.<date>.<prompt|->:<part>` (a modal), `rc:a:p:<prompt>` (a prompt's
 * "Answer"), `rc:a:r:<checkin>.<date>.<prompt|->:<part>` ("Continue"), `rc:a:t:<message>` and `rc:m:t:<message>`
 * (a test prompt). The person is always the interaction's: a ref of someone else's prompt is refused.
 */
export const PER_MODAL = 5;
const TITLE_MAX = 45;
const LABEL_MAX = 45;
const PLACEHOLDER_MAX = 100;
export const VALUE_MAX = 4000;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const REF = new RegExp(`^(${UUID})\\.(\\d{4}-\\d{2}-\\d{2})\\.(${UUID}|-):([1-9]\\d?)$`);

export const refId = (ref: ChatAnswerRef, part: number): string => `${ref.checkin}.${ref.date}.${ref.prompt ?? '-'}:${part}`;

/** What a custom_id of ours names; null when it is none. */
export type CustomId =
  | { kind: 'prompt'; prompt: string }
  | { kind: 'test'; message: string; modal: boolean }
  | { kind: 'part'; ref: ChatAnswerRef; part: number; modal: boolean };

export function readCustomId(id: unknown): CustomId | null {
  if (typeof id !== 'string' || id.length > 100) return null;
  const [, kind, rest] = /^rc:(a|m):(.*)$/.exec(id) ?? [];
  if (!kind) return null;
  const uuid = new RegExp(`^(${UUID})$`);
  if (rest.startsWith('t:') && uuid.test(rest.slice(2))) return { kind: 'test', message: rest.slice(2), modal: kind === 'm' };
  if (kind === 'a' && rest.startsWith('p:') && uuid.test(rest.slice(2))) return { kind: 'prompt', prompt: rest.slice(2) };
  const body = kind === 'a' ? (rest.startsWith('r:') ? rest.slice(2) : '') : rest;
  const m = REF.exec(body);
  if (!m || Number.isNaN(Date.parse(`${m[2]}T00:00:00Z`))) return null;
  return { kind: 'part', ref: { checkin: m[1], date: m[2], prompt: m[3] === '-' ? null : m[3] }, part: Number(m[4]), modal: kind === 'm' };
}

export const partsOf = (questions: unknown[]): number => Math.max(1, Math.ceil(questions.length / PER_MODAL));
export const questionsOfPart = (questions: QuestionRow[], part: number): QuestionRow[] => questions.slice((part - 1) * PER_MODAL, part * PER_MODAL);

const choicesOf = (q: QuestionRow) => readJson<{ label: string; value: string }[]>(q.choices, []);

/** The day's saved answers as the texts the inputs show, by input name. */
export function shownAnswers(view: Pick<AnswerView, 'questions' | 'answers'>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const q of view.questions) {
    const text = shown(q, view.answers.get(q.uuid));
    if (text !== undefined) out[`q.${q.uuid}`] = text;
  }
  return out;
}

/** A saved answer as the text the input shows. */
function shown(q: QuestionRow, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (q.question_type === 'boolean' && typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (q.question_type === 'multiple_choice' && Array.isArray(value)) {
    const choices = choicesOf(q);
    return value.map((v) => choices.find((c) => c.value === v)?.label ?? String(v)).join('\n');
  }
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

function input(q: QuestionRow, index: number, value: string | undefined): Record<string, unknown> {
  const short = q.question_type === 'numeric' || q.question_type === 'boolean';
  const placeholder = q.question_type === 'boolean' ? 'Yes or No'
    : q.question_type === 'numeric' ? 'A number'
    : q.question_type === 'multiple_choice' ? `One per line: ${choicesOf(q).map((c) => c.label).join(', ')}`
    : undefined;
  return {
    type: 1,
    components: [{
      type: 4, custom_id: `q.${q.uuid}`, label: cut(`${index + 1}. ${q.question}`, LABEL_MAX), style: short ? 1 : 2,
      required: Boolean(Number(q.required)), max_length: VALUE_MAX,
      ...(placeholder ? { placeholder: cut(placeholder, PLACEHOLDER_MAX) } : {}),
      ...(value ? { value: value.slice(0, VALUE_MAX) } : {}),
    }],
  };
}

/**
 * Part `part` of a check-in day's form, filled with what the person typed in an earlier try (`draft`), else with
 * the day's saved answers.
 */
export function answerModal(view: AnswerView, ref: ChatAnswerRef, part: number, draft: Record<string, string>): Record<string, unknown> {
  const total = partsOf(view.questions);
  const suffix = total > 1 ? ` (${part}/${total})` : '';
  return {
    custom_id: `rc:m:${refId(ref, part)}`,
    title: `${cut(view.checkin.name, TITLE_MAX - suffix.length)}${suffix}`,
    components: questionsOfPart(view.questions, part).map((q) => {
      const index = view.questions.indexOf(q);
      return input(q, index, Object.hasOwn(draft, `q.${q.uuid}`) ? draft[`q.${q.uuid}`] : shown(q, view.answers.get(q.uuid)));
    }),
  };
}

/** The test prompt's form: one question, and nothing is saved. */
export const testModal = (message: string): Record<string, unknown> => ({
  custom_id: `rc:m:t:${message}`,
  title: 'Rollcall test',
  components: [{ type: 1, components: [{ type: 4, custom_id: 'q.test', label: 'How is your day going?', style: 2, required: false, max_length: VALUE_MAX }] }],
});

/**
 * The inputs of a submitted modal (`data.components`: action rows, or labels, holding text inputs), by custom_id.
 * Only ours (`q.…`), strings, at most 25; anything else is ignored.
 */
export function submittedValues(data: unknown): Record<string, string> {
  const values: Record<string, string> = {};
  const walk = (node: unknown, depth: number) => {
    if (depth > 4 || typeof node !== 'object' || node === null || Object.keys(values).length >= 25) return;
    if (Array.isArray(node)) {
      for (const child of node.slice(0, 25)) walk(child, depth + 1);
      return;
    }
    const n = node as Record<string, unknown>;
    if (typeof n.custom_id === 'string' && /^q\.[0-9a-z-]{1,36}$/.test(n.custom_id) && typeof n.value === 'string' && !n.value.includes('\u0000')) {
      values[n.custom_id] = n.value.slice(0, VALUE_MAX);
    }
    if (Object.hasOwn(n, 'components')) walk(n.components, depth + 1);
    if (Object.hasOwn(n, 'component')) walk(n.component, depth + 1);
  };
  walk(typeof data === 'object' && data !== null && Object.hasOwn(data, 'components') ? (data as { components: unknown }).components : null, 0);
  return values;
}

const YES = new Set(['yes', 'y', 'true', '1', 'sí', 'si', 'sim', 'oui', 'ja']);
const NO = new Set(['no', 'n', 'false', '0', 'não', 'nao', 'non', 'nein']);

/**
 * The typed answers as the web page's form values; what cannot be read (a yes/no that is neither, a choice not
 * offered) is a problem by question uuid, in the responses service's words where it has them.
 */
export function formValuesOf(questions: QuestionRow[], typed: Record<string, string>): { form: FormValues; problems: Map<string, string> } {
  const form: FormValues = new Map();
  const problems = new Map<string, string>();
  for (const q of questions) {
    const name = `q.${q.uuid}`;
    if (!Object.hasOwn(typed, name)) continue;
    const text = typed[name].trim();
    if (text === '') {
      form.set(name, []);
    } else if (q.question_type === 'boolean') {
      const word = text.toLowerCase();
      if (YES.has(word)) form.set(name, ['yes']);
      else if (NO.has(word)) form.set(name, ['no']);
      else problems.set(q.uuid, 'Answer Yes or No.');
    } else if (q.question_type === 'multiple_choice') {
      const choices = choicesOf(q);
      const picked: string[] = [];
      for (const item of text.split(/\n|,/).map((s) => s.trim().toLowerCase()).filter(Boolean)) {
        const choice = choices.find((c) => c.label.toLowerCase() === item || c.value.toLowerCase() === item);
        if (choice) picked.push(choice.value);
        else problems.set(q.uuid, `Not a choice: ${cut(item, 60)}. Choose from: ${choices.map((c) => c.label).join(', ')}.`);
      }
      form.set(name, picked);
    } else {
      form.set(name, [typed[name]]);
    }
  }
  return { form, problems };
}
