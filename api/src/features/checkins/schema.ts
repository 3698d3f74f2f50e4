import * as yup from 'yup';
import { dateField, holidayCalendarField, jsonObjectField, timezoneField, uuidField } from '../../http/fields.ts';
import { QUESTION_TYPES } from '../../db/tables.ts';
import { PRESENTATIONS } from './question-kinds.ts';

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const timeField = () => yup.string().matches(TIME, { message: 'Must be a time as HH:MM (24-hour).' });

const questionFields = {
  question_type: yup.string().oneOf(QUESTION_TYPES),
  question: yup.string().min(1).max(2000),
  required: yup.boolean(),
  is_blocker: yup.boolean(),
  short_question: yup.string().max(512).nullable(),
  options: yup.array(yup.string().min(1).max(200).required()).max(50),
  variations: yup.array(yup.string().max(2000).required()).max(20),
  logic: jsonObjectField().nullable().default(undefined),
  multiple: yup.boolean(),
  min: yup.number().min(-1_000_000_000).max(1_000_000_000).nullable(),
  max: yup.number().min(-1_000_000_000).max(1_000_000_000).nullable(),
  presentation: yup.string().oneOf(PRESENTATIONS).nullable(),
  min_label: yup.string().max(100).nullable(),
  max_label: yup.string().max(100).nullable(),
};

/** A question in a create body (CONTRACT §12); `options` are plain strings stored as choices. */
export const questionSchema = yup.object({
  ...questionFields,
  question_type: questionFields.question_type.required(),
  question: questionFields.question.required(),
});
export type QuestionInput = Omit<yup.InferType<typeof questionSchema>, 'logic'> & { logic?: object | null; uuid?: string };

/** In PATCH …/config/ a question may name an existing one by uuid, which keeps its identity. */
const configQuestionSchema = questionSchema.shape({ uuid: uuidField() });

/** POST …/questions/: one question, optionally at a position. */
export const addQuestionSchema = questionSchema.shape({ index: yup.number().integer().min(0) });
export type AddQuestionInput = yup.InferType<typeof addQuestionSchema>;

export const updateQuestionSchema = yup.object(questionFields);
export type UpdateQuestionInput = yup.InferType<typeof updateQuestionSchema>;

/** `{question_uuids}` (CONTRACT §12) or `{order}` (§7). */
export const reorderQuestionsSchema = yup.object({
  question_uuids: yup.array(uuidField().required()).max(200),
  order: yup.array(uuidField().required()).max(200),
});
export type ReorderQuestionsInput = yup.InferType<typeof reorderQuestionsSchema>;

const reportChannel = yup
  .mixed<string | { id: string; name?: string | null; platform?: string | null; type?: string | null }>()
  .test('report-channel', 'Must be a channel id or an object {id, name?, platform?, type?}.', (value) => {
    if (typeof value === 'string') return value.length > 0 && value.length <= 200;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const allowed = new Set(['id', 'name', 'platform', 'type']);
    const entries = Object.entries(value as Record<string, unknown>);
    return (
      typeof (value as { id?: unknown }).id === 'string' &&
      entries.every(([k, v]) => allowed.has(k) && (v === null || (typeof v === 'string' && v.length <= 200)))
    );
  });

/** The settings clients send inline (CONTRACT §12); booleans, numbers and strings as listed there. */
export const settingsFields = {
  frequency_type: yup.string().min(1).max(32),
  frequency: yup.number().integer().min(1).max(52),
  is_trigger_based: yup.boolean(),
  use_participant_timezone: yup.boolean(),
  reminders_max_count: yup.number().integer().min(0).max(20),
  reminders_frequency_time: yup.number().integer().min(0).max(1440),
  reminders_trigger_condition: yup.string().max(64).nullable(),
  use_user_defined_work_days: yup.boolean(),
  allow_responses_before_trigger: yup.boolean(),
  allow_past_responses: yup.boolean(),
  allow_future_responses: yup.boolean(),
  is_anonymous: yup.boolean(),
  privacy: yup.string().max(32).nullable(),
  send_reports_one_by_one: yup.boolean(),
  custom_template_intro: yup.string().max(2000).nullable(),
  custom_template_outro: yup.string().max(2000).nullable(),
  time_for_report: timeField().nullable(),
  reminder_tone: yup.string().max(32).nullable(),
  is_smart_checkin: yup.boolean(),
  is_intelligence_enabled: yup.boolean(),
  max_clarifying_questions: yup.number().integer().min(0).max(10),
  blocker_alert_days: yup.number().integer().min(1).max(90).nullable(),
  frequency_advanced: jsonObjectField().nullable().default(undefined),
  frequency_cron: yup.string().max(100).nullable(),
  start_on: dateField().nullable(),
  end_on: dateField().nullable(),
  /** Public holidays nobody is asked on (issue 36): `ES`, `ES-MD`; a participant's own calendar wins. */
  holiday_calendar: holidayCalendarField(),
};

/** Settings kept in the `settings` JSON column, with the value reads show when never set. */
export const STORED_SETTINGS: Record<string, unknown> = {
  frequency: 1,
  is_trigger_based: false,
  use_participant_timezone: false,
  reminders_max_count: 0,
  reminders_frequency_time: 0,
  reminders_trigger_condition: null,
  use_user_defined_work_days: false,
  allow_responses_before_trigger: false,
  privacy: null,
  send_reports_one_by_one: false,
  custom_template_intro: null,
  custom_template_outro: null,
  time_for_report: null,
  reminder_tone: null,
  is_smart_checkin: false,
  is_intelligence_enabled: false,
  max_clarifying_questions: 0,
  blocker_alert_days: 3,
  frequency_advanced: null,
  frequency_cron: null,
  holiday_calendar: null,
};

const scheduleSchema = yup.object({
  days: yup.array(yup.number().integer().min(0).max(6).required()).min(1).max(7),
  time: timeField(),
  timezone: timezoneField(),
});

const participantsSchema = yup.object({
  user_uuids: yup.array(uuidField().required()).max(2000),
  team_uuids: yup.array(uuidField().required()).max(500),
});

const commonFields = {
  schedule: scheduleSchema,
  frequency_on_days: yup.array(yup.number().integer().min(1).max(7).required()).min(1).max(7),
  participants: participantsSchema,
  report_channels: yup.array(reportChannel.required()).max(50),
  generate_short_question: yup.boolean(),
  template_uuid: uuidField().nullable(),
  active: yup.boolean(),
  ...settingsFields,
};

/** POST /v1/checkins/create/ (CONTRACT §12). */
export const createCheckinSchema = yup.object({
  name: yup.string().min(1).max(200).required(),
  questions: yup.array(questionSchema.required()).max(50),
  ...commonFields,
});
export type CreateCheckinInput = Omit<yup.InferType<typeof createCheckinSchema>, 'frequency_advanced'> & { frequency_advanced?: object | null };

/** PATCH …/config/: the same fields, each optional; `questions` and participant lists replace what is there. */
export const updateCheckinSchema = yup.object({
  name: yup.string().min(1).max(200),
  questions: yup.array(configQuestionSchema.required()).max(50),
  ...commonFields,
});
export type UpdateCheckinInput = Omit<yup.InferType<typeof updateCheckinSchema>, 'frequency_advanced'> & { frequency_advanced?: object | null };
export type CheckinSettingsInput = CreateCheckinInput | UpdateCheckinInput;

const answer = yup.object({
  uuid: uuidField(),
  index: yup.number().integer().min(0),
  response: yup.mixed().nullable(),
});

/** POST and PUT …/responses/ (CONTRACT §7, §12). */
export const responseSchema = yup.object({
  responses: yup.array(answer.required()).max(50).required(),
  response_date: dateField(),
  last_question_index: yup.number().integer().min(0),
});
export type ResponseInput = yup.InferType<typeof responseSchema>;

export const editResponseSchema = responseSchema.shape({ responses: yup.array(answer.required()).max(50) });
export type EditResponseInput = yup.InferType<typeof editResponseSchema>;
