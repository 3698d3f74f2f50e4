import type { CheckinRow, QuestionFields } from '../../db/tables.ts';
import { bool, readJson, writeJson } from '../../lib/json.ts';
import { formatDays, sundayZeroToIso } from './schedule-days.ts';
import { STORED_SETTINGS } from './schema.ts';
import type { CheckinSettingsInput, QuestionInput } from './schema.ts';
import { MOOD, SCALE_MAX_STEPS, choicesOf, kindOf } from './question-kinds.ts';
import type { QuestionExtras } from './question-kinds.ts';

/**
 * Check-in and question bodies turned into column values, without touching the database: create, config and
 * the question endpoints share them. Problems go into a field map under the body's paths.
 */

export interface ReportChannel {
  id: string;
  name: string | null;
  platform: string | null;
  type: string | null;
}

/** A question body turned into column values; problems are reported under `path` (e.g. "questions.2"). */
export function questionColumns(input: Partial<QuestionInput>, path: string, current?: QuestionFields, generateShort = false) {
  const problems: Record<string, string[]> = {};
  const type = input.question_type ?? current?.question_type ?? 'text';
  const existingChoices = current ? readJson<{ label: string; value: string }[]>(current.choices, []) : [];
  let choices = input.options ? [...new Set(input.options)].map((label) => ({ label, value: label })) : type === current?.question_type ? existingChoices : [];
  if (type === 'multiple_choice' && choices.length < 2) problems[`${path}options`] = ['A multiple-choice question needs at least 2 options.'];
  if (type !== 'multiple_choice') {
    if (input.options && input.options.length > 0) problems[`${path}options`] = ['Only multiple-choice questions take options.'];
    choices = [];
  }
  const question = input.question ?? current?.question ?? '';
  if (input.question !== undefined && input.question.trim() === '') problems[`${path}question`] = ['This field may not be blank.'];
  const extras = { ...(current ? readJson<Record<string, unknown>>(current.extras, {}) : {}) };
  if (input.variations !== undefined) extras.variations = input.variations;
  if (input.logic !== undefined) extras.logic = input.logic;
  Object.assign(problems, kindExtras(input, type, extras, path));
  let shortQuestion = input.short_question !== undefined ? input.short_question : (current?.short_question ?? null);
  if (!shortQuestion && generateShort) shortQuestion = question.replace(/[?.!:\s]+$/, '').slice(0, 60);
  const columns = {
    question,
    short_question: shortQuestion,
    question_type: type,
    required: input.required ?? (current ? bool(current.required) : true),
    is_blocker: input.is_blocker ?? (current ? bool(current.is_blocker) : false),
    choices: writeJson(choices),
    extras: writeJson(extras),
  };
  return { columns, problems };
}

const KIND_FIELDS = ['multiple', 'min', 'max', 'presentation', 'min_label', 'max_label'] as const;

/**
 * The type's own settings (question-kinds.ts) written into `extras`: what the input gives over what the question
 * had, then checked against its type. Settings of another type are refused when given and dropped when the
 * type changes.
 */
function kindExtras(input: Partial<QuestionInput>, type: string, extras: QuestionExtras & Record<string, unknown>, path: string): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  for (const field of KIND_FIELDS) {
    const value = (input as Record<string, unknown>)[field];
    if (value !== undefined) (extras as Record<string, unknown>)[field] = value;
  }
  const given = (field: (typeof KIND_FIELDS)[number]) => (input as Record<string, unknown>)[field] !== undefined && (input as Record<string, unknown>)[field] !== null && (input as Record<string, unknown>)[field] !== false;
  const refuse = (fields: readonly (typeof KIND_FIELDS)[number][], message: string) => {
    for (const field of fields) if (given(field)) problems[`${path}${field}`] = [message];
    for (const field of fields) delete extras[field];
  };
  if (type !== 'multiple_choice') refuse(['multiple'], 'Only multiple-choice questions take multiple.');
  if (type !== 'numeric') {
    refuse(['min', 'max', 'presentation', 'min_label', 'max_label'], 'Only numeric questions take min, max, presentation and end labels.');
    return problems;
  }
  const presentation = extras.presentation ?? null;
  if (presentation === 'mood') {
    if ((extras.min ?? MOOD.min) !== MOOD.min || (extras.max ?? MOOD.max) !== MOOD.max) problems[`${path}presentation`] = ['A mood question is always 1 to 5: leave min and max out.'];
    extras.min = MOOD.min;
    extras.max = MOOD.max;
  } else if (presentation === 'scale') {
    extras.min = extras.min ?? 1;
    extras.max = extras.max ?? 5;
    if (!Number.isInteger(extras.min) || !Number.isInteger(extras.max)) problems[`${path}presentation`] = ['A scale runs between whole numbers: min and max must be integers.'];
    else if (extras.max - extras.min < 1 || extras.max - extras.min >= SCALE_MAX_STEPS) problems[`${path}presentation`] = [`A scale has 2 to ${SCALE_MAX_STEPS} steps (for example 1 to 5, or 0 to 10).`];
  } else {
    delete extras.presentation;
    if (given('min_label') || given('max_label')) problems[`${path}${given('min_label') ? 'min_label' : 'max_label'}`] = ['End labels belong to a scale or mood question (presentation).'];
    delete extras.min_label;
    delete extras.max_label;
  }
  if (typeof extras.min === 'number' && typeof extras.max === 'number' && extras.min > extras.max) problems[`${path}max`] = ['Must be at least min.'];
  return problems;
}

/**
 * The `logic.show_if` of each question of a list (in order), checked against the others: it names an earlier
 * question by index, and `equals` is a value that question can take. `pathOf(i)` is where a problem is reported.
 */
export function conditionProblems(questions: Pick<QuestionFields, 'question_type' | 'choices' | 'extras'>[], pathOf: (i: number) => string): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  questions.forEach((q, i) => {
    const logic = readJson<QuestionExtras>(q.extras, {}).logic;
    if (!logic || !Object.hasOwn(logic, 'show_if')) return;
    const { showIf } = kindOf(q);
    const at = `${pathOf(i)}logic.show_if`;
    if (!showIf) {
      problems[at] = ['Must be {"question_index": N, "equals": value}: N an earlier question\'s index, value a string, number or boolean.'];
      return;
    }
    const target = questions[showIf.question_index];
    if (showIf.question_index < 0 || showIf.question_index >= i || !target) {
      problems[`${at}.question_index`] = ['Must be the index of an earlier question.'];
      return;
    }
    const { equals } = showIf;
    const fits = target.question_type === 'boolean' ? typeof equals === 'boolean'
      : target.question_type === 'numeric' ? typeof equals === 'number'
        : target.question_type === 'multiple_choice' ? choicesOf(target).some((c) => c.value === equals)
          : typeof equals === 'string';
    if (!fits) {
      const expected = target.question_type === 'boolean' ? 'true or false' : target.question_type === 'numeric' ? 'a number'
        : target.question_type === 'multiple_choice' ? `one of the choices: ${choicesOf(target).map((c) => c.value).join(', ')}` : 'a string';
      problems[`${at}.equals`] = [`Question ${showIf.question_index} takes ${expected}.`];
    }
  });
  return problems;
}

function normalizeReportChannels(channels: CheckinSettingsInput['report_channels']): ReportChannel[] | undefined {
  if (!channels) return undefined;
  return channels.map((c) =>
    typeof c === 'string' ? { id: c, name: null, platform: null, type: null } : { id: c.id, name: c.name ?? null, platform: c.platform ?? null, type: c.type ?? null },
  );
}

/** Column values for the schedule and settings present in `input`; `current` fills what is absent. */
export function settingsColumns(input: CheckinSettingsInput, current: CheckinRow | null, problems: Record<string, string[]>) {
  const columns: Record<string, unknown> = {};
  let isoDays: number[] | undefined;
  if (input.schedule?.days) isoDays = sundayZeroToIso(input.schedule.days);
  if (input.frequency_on_days) {
    const fromIso = [...new Set(input.frequency_on_days)].sort((a, b) => a - b);
    if (isoDays && formatDays(isoDays) !== formatDays(fromIso)) {
      problems.frequency_on_days = ['Names other days than schedule.days (0 = Sunday there, 7 = Sunday here).'];
    }
    isoDays ??= fromIso;
  }
  if (isoDays) columns.days = formatDays(isoDays);
  if (input.schedule?.time) columns.time = input.schedule.time;
  if (input.schedule?.timezone) columns.timezone = input.schedule.timezone;
  for (const field of ['name', 'active', 'frequency_type', 'start_on', 'end_on', 'is_anonymous', 'allow_past_responses', 'allow_future_responses', 'template_uuid'] as const) {
    const value = (input as Record<string, unknown>)[field];
    if (value !== undefined) columns[field] = value;
  }
  const startOn = (columns.start_on ?? current?.start_on ?? null) as string | null;
  const endOn = (columns.end_on ?? current?.end_on ?? null) as string | null;
  if (startOn && endOn && startOn > endOn) problems.end_on = ['Must be on or after start_on.'];
  const reportChannels = normalizeReportChannels(input.report_channels);
  if (reportChannels) columns.report_channels = writeJson(reportChannels);
  const settings = current ? readJson<Record<string, unknown>>(current.settings, {}) : {};
  let settingsChanged = false;
  for (const key of Object.keys(STORED_SETTINGS)) {
    const value = (input as Record<string, unknown>)[key];
    if (value !== undefined) {
      settings[key] = value;
      settingsChanged = true;
    }
  }
  if (settingsChanged || !current) columns.settings = writeJson(settings);
  return columns;
}
