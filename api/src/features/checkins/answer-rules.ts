import { ValidationFailed } from '../../lib/errors.ts';
import { bool } from '../../lib/json.ts';
import type { QuestionFields } from '../../db/tables.ts';
import type { Answer, AnswerValue } from './response-parts.ts';
import { choicesOf, kindOf, visibleQuestions } from './question-kinds.ts';

/*
 * What an answer is worth, without the database: whether a value answers its question (blank text and an empty
 * choice list do not), whether a blocker answer signals an issue, whether a day's answers are complete, and the
 * rule every direct answer passes (requireAnswered).
 */

/** One answer as a client sends it: the question by uuid or index, and the value (null clears it). */
export interface AnswerInput {
  uuid?: string;
  index?: number;
  response?: unknown;
}

const NO_BLOCKER = /^(no|none|nope|nothing|n\/?a|-+|no blockers?|no issues?|nothing blocking( me)?|all good|not at the moment)[.!]?$/i;

/** A value answers its question unless it is absent, blank or whitespace-only text, or an empty choice list. */
export const isAnswered = (value: AnswerValue | undefined): boolean =>
  value !== undefined && (typeof value === 'string' ? value.trim() !== '' : Array.isArray(value) ? value.length > 0 : true);

/** Blocker detection: a non-empty blocker answer that does not say "none" (or a true / non-zero one). */
export function signalsIssue(value: AnswerValue | undefined): boolean {
  if (!isAnswered(value)) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  const text = Array.isArray(value) ? value.join(' ') : value!;
  return !NO_BLOCKER.test(text.trim());
}

/** `completed`: every required question is answered (the day counts as answered); `hasIssue`: a blocker answer says so. */
export function evaluate(questions: QuestionFields[], answers: Answer[]): { completed: boolean; hasIssue: boolean } {
  const byUuid = new Map(answers.map((a) => [a.uuid, a.response]));
  const asked = visibleQuestions(questions, byUuid);
  return {
    completed: asked.every((q) => !bool(q.required) || isAnswered(byUuid.get(q.uuid))),
    hasIssue: asked.some((q) => bool(q.is_blocker) && signalsIssue(byUuid.get(q.uuid))),
  };
}

const range = (min: number | null, max: number | null) =>
  min !== null && max !== null ? `from ${min} to ${max}` : min !== null ? `of at least ${min}` : `of at most ${max}`;

/**
 * The value a question keeps for an answer, or what is wrong with it: text as given; a yes/no; a number within
 * `min`…`max` (a whole one on a scale or mood); one choice's value as a string, or with `multiple` the picked
 * values as an array in the choices' order (one value alone is taken as a one-item pick either way).
 */
export function normalizeAnswer(q: QuestionFields, value: unknown): { value: AnswerValue } | { problem: string } {
  switch (q.question_type) {
    case 'text':
      return typeof value === 'string' && value.length <= 10_000 ? { value } : { problem: 'A text answer is a string of at most 10000 characters.' };
    case 'boolean':
      return typeof value === 'boolean' ? { value } : { problem: 'A yes/no answer is true or false.' };
    case 'numeric': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return { problem: 'A numeric answer is a number.' };
      const { min, max, presentation } = kindOf(q);
      if (presentation && !Number.isInteger(value)) return { problem: `A whole number ${range(min, max)}.` };
      if ((min !== null && value < min) || (max !== null && value > max)) return { problem: `A ${presentation ? 'whole ' : ''}number ${range(min, max)}.` };
      // -0 is stored as 0: JSON has no negative zero.
      return { value: value === 0 ? 0 : value };
    }
    case 'multiple_choice': {
      const choices = choicesOf(q).map((c) => c.value);
      const { multiple } = kindOf(q);
      const values = Array.isArray(value) ? value : [value];
      // No pick is no answer (a required question names it as unanswered).
      if (values.length === 0) return { value: [] };
      if (!values.every((v) => typeof v === 'string' && choices.includes(v))) return { problem: `Must be one of the choices: ${choices.join(', ')}.` };
      if (!multiple) return values.length === 1 ? { value: values[0] as string } : { problem: `Pick one of the choices: ${choices.join(', ')}.` };
      return { value: choices.filter((c) => values.includes(c)) };
    }
    default:
      return { problem: 'Unknown question type.' };
  }
}

const inputQuestion = (byUuid: Map<string, QuestionFields>, byIndex: Map<number, QuestionFields>, input: AnswerInput) =>
  input.uuid !== undefined ? byUuid.get(input.uuid) : input.index !== undefined ? byIndex.get(input.index) : undefined;

/**
 * Applies `inputs` ({uuid | index, response}) over `existing` answers. A null response clears the answer.
 * Answers are kept as a snapshot in question order: {uuid, index, question, response}.
 */
export function applyAnswers(questions: QuestionFields[], existing: Answer[], inputs: AnswerInput[]): Answer[] {
  const problems: Record<string, string[]> = {};
  const byUuid = new Map(questions.map((q) => [q.uuid, q]));
  const byIndex = new Map(questions.map((q) => [q.position, q]));
  const values = new Map<string, AnswerValue>(existing.filter((a) => byUuid.has(a.uuid)).map((a) => [a.uuid, a.response]));
  const seen = new Set<string>();
  inputs.forEach((input, i) => {
    const q = inputQuestion(byUuid, byIndex, input);
    if (!q) {
      problems[`responses.${i}.${input.uuid !== undefined ? 'uuid' : 'index'}`] = [input.uuid === undefined && input.index === undefined ? 'Name the question by uuid or index.' : 'No such question in this check-in.'];
      return;
    }
    if (seen.has(q.uuid)) {
      problems[`responses.${i}`] = ['This question is answered twice.'];
      return;
    }
    seen.add(q.uuid);
    if (input.response === null || input.response === undefined) {
      values.delete(q.uuid);
      return;
    }
    const normalized = normalizeAnswer(q, input.response);
    if ('problem' in normalized) problems[`responses.${i}.response`] = [normalized.problem];
    else values.set(q.uuid, normalized.value);
  });
  if (Object.keys(problems).length) throw new ValidationFailed(problems);
  // A question its condition hides keeps no answer: it was not asked.
  return visibleQuestions(questions, values)
    .filter((q) => values.has(q.uuid))
    .map((q) => ({ uuid: q.uuid, index: q.position, question: q.question, response: values.get(q.uuid)! }));
}

/**
 * A direct answer that leaves required questions unanswered: 400 with the field map (CONTRACT §2), one entry per
 * question. A question the body named (blank, whitespace or null) is named by its path, `responses.<i>.response`;
 * one the body left out is listed under `responses` with its index and text. `questions` lets the web answer page
 * and the e-mail reply say the same in the person's words.
 */
export class IncompleteAnswer extends ValidationFailed {
  readonly questions: QuestionFields[];
  constructor(fields: Record<string, string[]>, questions: QuestionFields[]) {
    super(fields);
    this.questions = questions;
  }
}

/**
 * The rule of every direct answer (POST and PUT …/responses/, the web answer page, an e-mail reply, MCP's
 * answer_checkin): the answers must answer every required question. A client answering question by question says
 * how far it got with `last_question_index` (`upTo`): the required questions up to that index must be answered, the
 * later ones may wait, and the day counts as answered (`response_completed`) once they are. The co-author merge of
 * agent reports and `rollcall update` (standup.ts) adds lines to the day's answer and is not held to this: what it
 * leaves unanswered keeps the day unanswered.
 */
export function requireAnswered(questions: QuestionFields[], answers: Answer[], inputs: AnswerInput[], upTo: number | null): void {
  const given = new Map(answers.map((a) => [a.uuid, a.response]));
  const missing = visibleQuestions(questions, given).filter((q) => bool(q.required) && (upTo === null || q.position <= upTo) && !isAnswered(given.get(q.uuid)));
  if (missing.length === 0) return;
  const byUuid = new Map(questions.map((q) => [q.uuid, q]));
  const byIndex = new Map(questions.map((q) => [q.position, q]));
  const fields: Record<string, string[]> = {};
  for (const q of missing) {
    const named = inputs.findIndex((input) => inputQuestion(byUuid, byIndex, input)?.uuid === q.uuid);
    if (named >= 0) fields[`responses.${named}.response`] = ['This question is required: the answer may not be blank.'];
    else (fields.responses ??= []).push(`The required question at index ${q.position} (${JSON.stringify(q.question)}) has no answer.`);
  }
  throw new IncompleteAnswer(fields, missing);
}
