import * as yup from 'yup';
import { uuidField } from '../../http/fields.ts';
import { questionSchema } from '../checkins/schema.ts';

import { FORM_TYPES } from '../../db/tables.ts';
export type { FormType } from '../../db/tables.ts';
/** Who may make a transition: the form's owners, organization admins or managers, the response's author. */
export const TRANSITION_ROLES = ['owner', 'admin', 'manager', 'respondent'] as const;
export type TransitionRole = (typeof TRANSITION_ROLES)[number];
export const FORM_FILTERS = ['all', 'public', 'approval', 'workflow', 'archived'] as const;

const stateName = () => yup.string().trim().min(1).max(64);

const stateSchema = yup.object({
  name: stateName().required(),
  is_initial: yup.boolean(),
  is_final: yup.boolean(),
  color: yup.string().max(32).nullable(),
});

const transitionSchema = yup.object({
  from_state: stateName().required(),
  to_state: stateName().required(),
  roles: yup.array(yup.string().oneOf(TRANSITION_ROLES).required()).min(1).max(4),
});

const settingsFields = {
  description: yup.string().max(5000).nullable(),
  form_type: yup.string().oneOf(FORM_TYPES),
  is_public: yup.boolean(),
  is_anonymous: yup.boolean(),
  owner_uuids: yup.array(uuidField().required()).max(50),
  states: yup.array(stateSchema.required()).max(20),
  transitions: yup.array(transitionSchema.required()).max(100),
};

/** POST /v1/forms/create/: questions as check-ins take them (CONTRACT §12). */
export const createFormSchema = yup.object({
  name: yup.string().trim().min(1).max(200).required(),
  questions: yup.array(questionSchema.required()).min(1).max(50).required(),
  ...settingsFields,
});
export type CreateFormInput = yup.InferType<typeof createFormSchema>;

/** PATCH …/config/: what is present changes; `states`, `transitions` and `owner_uuids` replace theirs. */
export const updateFormSchema = yup.object({
  name: yup.string().trim().min(1).max(200),
  ...settingsFields,
});
export type UpdateFormInput = yup.InferType<typeof updateFormSchema>;
export type FormSettingsInput = CreateFormInput | UpdateFormInput;

const answer = yup.object({
  uuid: uuidField(),
  index: yup.number().integer().min(0),
  response: yup.mixed().nullable(),
});

export const formResponseSchema = yup.object({
  responses: yup.array(answer.required()).max(50).required(),
});
export type FormResponseInput = yup.InferType<typeof formResponseSchema>;

export const transitionRequestSchema = yup.object({
  to_state: stateName().required(),
  note: yup.string().max(2000).nullable(),
});
export type TransitionRequest = yup.InferType<typeof transitionRequestSchema>;

