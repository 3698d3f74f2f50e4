import { bool, readJson } from '../../lib/json.ts';
import type { QuestionFields } from '../../db/tables.ts';
import type { AnswerValue } from './response-parts.ts';

/*
 * What each question type takes, read from a question's row: multiple choice picks one choice or, with
 * `multiple: true`, several; a number may be bounded by `min` and `max`, and asked as a `scale` (whole numbers,
 * with a word at each end) or a `mood` (1–5, faces); `logic.show_if` shows a question only when an earlier one
 * was answered with a value. These settings live in the question's `extras` column beside `variations`.
 */

export const PRESENTATIONS = ['scale', 'mood'] as const;
export type Presentation = (typeof PRESENTATIONS)[number];

/** A scale has at most 11 steps (0 to 10); a mood question is always 1 to 5. */
export const SCALE_MAX_STEPS = 11;
export const MOOD = { min: 1, max: 5 } as const;
/** The mood faces, from 1 to 5. */
export const MOOD_FACES = ['😞', '🙁', '😐', '🙂', '😄'] as const;

export interface ShowIf {
  question_index: number;
  equals: string | number | boolean;
}

/** How one question asks and what it takes. */
export interface QuestionKind {
  multiple: boolean;
  min: number | null;
  max: number | null;
  presentation: Presentation | null;
  minLabel: string | null;
  maxLabel: string | null;
  showIf: ShowIf | null;
}

export interface QuestionExtras {
  variations?: string[];
  logic?: Record<string, unknown> | null;
  multiple?: boolean;
  min?: number | null;
  max?: number | null;
  presentation?: Presentation | null;
  min_label?: string | null;
  max_label?: string | null;
}

const isShowIf = (value: unknown): value is ShowIf => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return Number.isInteger(v.question_index) && ['string', 'number', 'boolean'].includes(typeof v.equals);
};

export function kindOf(q: Pick<QuestionFields, 'extras'>): QuestionKind {
  const extras = readJson<QuestionExtras>(q.extras, {});
  const logic = extras.logic && typeof extras.logic === 'object' ? extras.logic : null;
  const showIf = logic && Object.hasOwn(logic, 'show_if') && isShowIf(logic.show_if) ? logic.show_if : null;
  const presentation = extras.presentation && (PRESENTATIONS as readonly string[]).includes(extras.presentation) ? extras.presentation : null;
  return {
    multiple: extras.multiple === true,
    min: presentation === 'mood' ? MOOD.min : typeof extras.min === 'number' ? extras.min : null,
    max: presentation === 'mood' ? MOOD.max : typeof extras.max === 'number' ? extras.max : null,
    presentation,
    minLabel: extras.min_label ?? null,
    maxLabel: extras.max_label ?? null,
    showIf,
  };
}

/** The choices of a multiple-choice question. */
export const choicesOf = (q: Pick<QuestionFields, 'choices'>): { label: string; value: string }[] => readJson<{ label: string; value: string }[]>(q.choices, []);

/** The whole numbers a scale or mood question offers, lowest first; empty for other questions. */
export function scaleSteps(q: Pick<QuestionFields, 'question_type' | 'extras'>): number[] {
  const kind = kindOf(q);
  if (q.question_type !== 'numeric' || !kind.presentation || kind.min === null || kind.max === null) return [];
  return Array.from({ length: kind.max - kind.min + 1 }, (_, i) => kind.min! + i);
}

/** Whether an answer is the value a condition waits for: one of the picks, the same yes/no or number, the same words. */
export function matchesCondition(value: AnswerValue | undefined, equals: ShowIf['equals']): boolean {
  if (value === undefined) return false;
  if (Array.isArray(value)) return value.includes(String(equals));
  if (typeof value === 'string' && typeof equals === 'string') return value.trim().toLowerCase() === equals.trim().toLowerCase();
  return value === equals;
}

/**
 * The questions shown for these answers: a question whose `show_if` names an earlier question is shown only when
 * that question is shown and was answered with the value it names. One pass in question order, since a condition
 * looks back only.
 */
export function visibleQuestions<T extends QuestionFields>(questions: T[], answers: Map<string, AnswerValue>): T[] {
  const byPosition = new Map(questions.map((q) => [q.position, q]));
  const shown = new Set<string>();
  for (const q of questions) {
    const { showIf } = kindOf(q);
    const target = showIf ? byPosition.get(showIf.question_index) : undefined;
    if (!showIf || !target || target.position >= q.position) shown.add(q.uuid);
    else if (shown.has(target.uuid) && matchesCondition(answers.get(target.uuid), showIf.equals)) shown.add(q.uuid);
  }
  return questions.filter((q) => shown.has(q.uuid));
}

/** What a question's answer means in words: choices by label, yes/no, a scale's number with its end words, a mood's face. */
export function answerWords(q: Pick<QuestionFields, 'question_type' | 'extras' | 'choices'> | undefined, value: unknown): string {
  if (Array.isArray(value)) {
    const labels = q ? new Map(choicesOf(q).map((c) => [c.value, c.label])) : new Map<string, string>();
    return value.map((v) => labels.get(String(v)) ?? String(v)).join(', ');
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number' && q?.question_type === 'numeric') {
    const kind = kindOf(q);
    if (kind.presentation === 'mood') return `${MOOD_FACES[value - 1] ?? ''} ${value}/5`.trim();
    if (kind.presentation === 'scale' && kind.max !== null) return `${value}/${kind.max}`;
  }
  return String(value);
}

/** `required` as a boolean. */
export const isRequired = (q: Pick<QuestionFields, 'required'>): boolean => bool(q.required);

/** The question a condition waits for and the answer it waits for, in words ("only if "Blocked?" is Yes"), or null. */
export function conditionWords(q: QuestionFields, questions: Pick<QuestionFields, 'position' | 'question' | 'question_type' | 'extras' | 'choices'>[]): string | null {
  const { showIf } = kindOf(q);
  const target = showIf ? questions.find((t) => t.position === showIf.question_index) : undefined;
  if (!showIf || !target || target.position >= q.position) return null;
  return `only if "${target.question}" is ${answerWords(target, target.question_type === 'multiple_choice' ? [showIf.equals] : showIf.equals)}`;
}

/** How to answer a question, in words (for prompts and the conversation): "yes or no", "1 = Rough … 5 = Great", the choices. */
export function answerHint(q: QuestionFields): string {
  const kind = kindOf(q);
  if (q.question_type === 'boolean') return 'yes or no';
  if (q.question_type === 'multiple_choice') return `${kind.multiple ? 'one or more of' : 'one of'}: ${choicesOf(q).map((c) => c.label).join(', ')}`;
  if (q.question_type !== 'numeric') return '';
  if (kind.presentation === 'mood') return `${MOOD.min} ${MOOD_FACES[0]} … ${MOOD.max} ${MOOD_FACES[4]}${kind.minLabel || kind.maxLabel ? ` (${kind.minLabel ?? ''} … ${kind.maxLabel ?? ''})` : ''}`;
  if (kind.presentation === 'scale') return `${kind.min}${kind.minLabel ? ` = ${kind.minLabel}` : ''} … ${kind.max}${kind.maxLabel ? ` = ${kind.maxLabel}` : ''}`;
  if (kind.min !== null || kind.max !== null) return `a number ${kind.min !== null && kind.max !== null ? `from ${kind.min} to ${kind.max}` : kind.min !== null ? `of at least ${kind.min}` : `of at most ${kind.max}`}`;
  return 'a number';
}

/** The question with how to answer it and when it is asked: "Week? (1 = Rough … 5 = Great)". */
export function questionWithHint(q: QuestionFields, questions: QuestionFields[]): string {
  const notes = [answerHint(q), conditionWords(q, questions) ?? ''].filter(Boolean);
  return notes.length ? `${q.question} (${notes.join('; ')})` : q.question;
}
