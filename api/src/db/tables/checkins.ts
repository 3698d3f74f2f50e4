/** Check-ins, their questions, participants and responses, and moods (migrations 0101–0106; blockers 1050). */

export const QUESTION_TYPES = ['text', 'multiple_choice', 'boolean', 'numeric'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export interface CheckinRow {
  uuid: string;
  organization_uuid: string;
  name: string;
  active: boolean | number;
  is_archived: boolean | number;
  archived_at: string | null;
  frequency_type: string;
  /** ISO weekdays 1 (Monday) … 7 (Sunday), comma-separated. */
  days: string;
  time: string;
  timezone: string;
  start_on: string | null;
  end_on: string | null;
  is_anonymous: boolean | number;
  allow_past_responses: boolean | number;
  allow_future_responses: boolean | number;
  template_uuid: string | null;
  /** JSON array of `{id, name, platform, type}`. */
  report_channels: string;
  /** JSON: the client settings kept verbatim (reminders, tone, intro/outro, …). */
  settings: string;
  created_by_uuid: string | null;
  created_at: string;
  updated_at: string;
}

/** A question's own columns: check-in and form questions have the same ones (forms.ts). */
export interface QuestionFields {
  uuid: string;
  position: number;
  question: string;
  short_question: string | null;
  question_type: QuestionType;
  required: boolean | number;
  is_blocker: boolean | number;
  /** JSON array of `{label, value}`. */
  choices: string;
  /** JSON `{variations?, logic?}` as the client sent them. */
  extras: string;
  created_at: string;
  updated_at: string;
}

export interface QuestionRow extends QuestionFields {
  checkin_uuid: string;
}

export interface CheckinParticipantUserRow {
  checkin_uuid: string;
  user_uuid: string;
}

export interface CheckinParticipantTeamRow {
  checkin_uuid: string;
  team_uuid: string;
}

export interface ResponseRow {
  uuid: string;
  organization_uuid: string;
  checkin_uuid: string;
  user_uuid: string;
  /** The check-in's local day, YYYY-MM-DD. */
  response_date: string;
  /** JSON snapshot `[{uuid, index, question, response}]`. */
  answers: string;
  response_completed: boolean | number;
  has_issue: boolean | number;
  last_question_index: number | null;
  created_at: string;
  updated_at: string;
  /** Fingerprint of the questions `answers` and the flags were computed with (response-parts.ts); null: fold first. */
  parts_basis?: string | null;
}

/** Lines appended to a response's answer to one question (migration 0750); readers fold them into `answers`. */
export interface ResponsePartRow {
  id: number | string;
  response_uuid: string;
  question_uuid: string;
  question_index: number;
  question: string;
  /** The lines, joined by newlines; never empty, never ending in white space. */
  lines: string;
  created_at: string;
}

export interface MoodRow {
  uuid: string;
  organization_uuid: string;
  user_uuid: string;
  date: string;
  score: number;
  created_at: string;
  updated_at: string;
}

/** A check-in's asking for one time zone and local day (migration 0820): written with the slot's prompts. */
export interface PromptSlotRow {
  checkin_uuid: string;
  local_date: string;
  timezone: string;
  prompted_at: string;
  prompts: number;
}

/** One participant asked on one day (migration 0820). */
export interface PromptRow {
  uuid: string;
  organization_uuid: string;
  checkin_uuid: string;
  user_uuid: string;
  run_date: string;
  timezone: string;
  prompted_at: string;
  reminders_sent: number;
  last_reminded_at: string | null;
  next_reminder_at: string | null;
  remind_until: string;
  message_id: string;
  /**
   * The e-mail reply last saved for this prompt: when it was written (Date, at most its arrival) and saved (0930).
   * Null until a reply is saved; a new prompt need not name them.
   */
  reply_written_at?: string | null;
  reply_saved_at?: string | null;
}

/** `reply:<hash of a reply address's secret>` or `message:<Message-ID>` of an e-mail a prompt sent (migration 0820). */
export interface ReplyKeyRow {
  key: string;
  prompt_uuid: string;
}

/** An answer link's grant (migration 0820): the token itself is never stored. */
export interface AnswerTokenRow {
  token_hash: string;
  checkin_uuid: string;
  user_uuid: string;
  run_date: string;
  expires_at: string;
  created_at: string;
}

/** A report sent (migration 0820): `subject` is 'team' or, one by one, the answering person's uuid. */
export interface CheckinReportRow {
  uuid: string;
  organization_uuid: string;
  checkin_uuid: string;
  report_date: string;
  subject: string;
  sent_at: string;
  destinations: string;
}

/** A person's time off (migration 0820), local days inclusive. */
export interface TimeOffRow {
  uuid: string;
  organization_uuid: string;
  user_uuid: string;
  start_on: string;
  end_on: string;
  created_at: string;
}

/** A prompt being answered in the chat conversation, one question at a time (migration 0950). */
export interface ChatConversationRow {
  prompt_uuid: string;
  organization_uuid: string;
  checkin_uuid: string;
  user_uuid: string;
  run_date: string;
  /** The question asked now (its index in the check-in's question order). */
  position: number;
  /** JSON `{question uuid: response}`: what was answered so far. */
  answers: string;
  updated_at: string;
}

/** One typed answer (a number, a yes/no as 1/0, a multiple-choice pick), kept by triggers on `checkin_responses` (1150). */
export interface AnswerValueRow {
  id: number | string;
  response_uuid: string;
  checkin_uuid: string;
  user_uuid: string;
  response_date: string;
  question_uuid: string;
  value_number: number | null;
  value_text: string | null;
}

/** A blocker a person reported in a blocker question's answer (migration 1050), open until resolved. */
export interface BlockerRow {
  uuid: string;
  organization_uuid: string;
  checkin_uuid: string;
  user_uuid: string;
  question_uuid: string;
  question: string;
  response_uuid: string | null;
  text: string;
  opened_on: string;
  opened_at: string;
  resolved_on: string | null;
  resolved_at: string | null;
  resolved_by_uuid: string | null;
  alerted_at: string | null;
}
