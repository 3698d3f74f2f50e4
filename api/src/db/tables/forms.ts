import type { QuestionFields } from './checkins.ts';

/** Forms, their owners, questions, responses and the responses' state history (migration 0502). */

export const FORM_TYPES = ['standard', 'approval', 'workflow'] as const;
export type FormType = (typeof FORM_TYPES)[number];

export interface FormRow {
  uuid: string;
  organization_uuid: string;
  name: string;
  description: string | null;
  form_type: FormType;
  is_public: boolean | number;
  is_anonymous: boolean | number;
  is_archived: boolean | number;
  archived_at: string | null;
  /** JSON array of `{name, is_initial, is_final, color}`. */
  states: string;
  /** JSON array of `{from_state, to_state, roles}`. */
  transitions: string;
  created_by_uuid: string | null;
  created_at: string;
  updated_at: string;
}

export interface FormOwnerRow {
  form_uuid: string;
  user_uuid: string;
}

export interface FormQuestionRow extends QuestionFields {
  form_uuid: string;
}

export interface FormResponseRow {
  uuid: string;
  organization_uuid: string;
  form_uuid: string;
  /** Kept for anonymous forms too (the author's own list and edits); never shown for them. */
  user_uuid: string;
  /** JSON array of `{uuid, index, question, response}`. */
  answers: string;
  current_state: string | null;
  created_at: string;
  updated_at: string;
}

export interface FormHistoryRow {
  uuid: string;
  response_uuid: string;
  from_state: string | null;
  to_state: string;
  actor_uuid: string | null;
  note: string | null;
  created_at: string;
}
