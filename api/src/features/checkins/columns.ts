import type { CheckinRow, QuestionFields } from '../../db/tables.ts';
import { bool, readJson, writeJson } from '../../lib/json.ts';
import { formatDays, sundayZeroToIso } from './schedule-days.ts';
import { STORED_SETTINGS } from './schema.ts';
import type { CheckinSettingsInput, QuestionInput } from './schema.ts';

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
