import * as yup from 'yup';
import { jsonObjectField, uuidField } from '../../http/fields.ts';

import { ACTION_TYPES, TRIGGER_TYPES } from '../../db/tables.ts';
export { ACTION_TYPES, TRIGGER_TYPES };
export type { ActionType, TriggerType } from '../../db/tables.ts';
export const HTTP_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'GET'] as const;

export const MAX_ACTIONS = 10;
export const MAX_PAYLOAD_BYTES = 8192;

/**
 * `trigger_config` by trigger: schedule `{cron, timezone?}` (five or six cron fields, the workflow's time
 * zone, default the organization's); event `{event, match?}` (an organization event name or `prefix.*`, and
 * top-level payload values that must be equal); api_trigger takes none.
 */
const triggerConfigSchema = yup
  .object({
    cron: yup.string().trim().min(1).max(100),
    timezone: yup.string().max(64),
    event: yup.string().max(100),
    match: jsonObjectField(),
  })
  .default(undefined);

/**
 * One action. Fields by type (the service refuses the others): send_message `{message, target_users?,
 * target_channels?, target_teams?}`; send_email `{to, subject, body_html}`; http_request `{url, method?,
 * headers?, body?, content_type?}`. Text fields are templates (`{{payload.x}}`).
 */
const actionSchema = yup.object({
  type: yup.string().oneOf(ACTION_TYPES).required(),
  message: yup.string().min(1).max(10_000),
  target_users: yup.array(uuidField().required()).max(100),
  target_channels: yup.array(yup.string().trim().min(1).max(200).required()).max(20),
  target_teams: yup.array(uuidField().required()).max(20),
  to: yup.array(yup.string().min(1).max(500).required()).min(1).max(50),
  subject: yup.string().min(1).max(1000),
  body_html: yup.string().min(1).max(10_000),
  url: yup.string().max(2048),
  method: yup.string().oneOf(HTTP_METHODS),
  headers: jsonObjectField(),
  body: yup.string().max(10_000),
  content_type: yup.string().max(200),
});
export type ActionInput = yup.InferType<typeof actionSchema> & { headers?: Record<string, unknown> };

export const createWorkflowSchema = yup.object({
  name: yup.string().trim().min(1).max(200).required(),
  description: yup.string().max(2000).nullable(),
  trigger_type: yup.string().oneOf(TRIGGER_TYPES).required(),
  trigger_config: triggerConfigSchema,
  actions: yup.array(actionSchema.required()).min(1).max(MAX_ACTIONS).required(),
  active: yup.boolean(),
});
export type CreateWorkflowInput = Omit<yup.InferType<typeof createWorkflowSchema>, 'actions' | 'trigger_config'> & {
  actions: ActionInput[];
  trigger_config?: TriggerConfigInput;
};
export type TriggerConfigInput = { cron?: string; timezone?: string; event?: string; match?: Record<string, unknown> };

export const updateWorkflowSchema = yup.object({
  name: yup.string().trim().min(1).max(200),
  description: yup.string().max(2000).nullable(),
  trigger_type: yup.string().oneOf(TRIGGER_TYPES),
  trigger_config: triggerConfigSchema,
  actions: yup.array(actionSchema.required()).min(1).max(MAX_ACTIONS),
  active: yup.boolean(),
});
export type UpdateWorkflowInput = Omit<yup.InferType<typeof updateWorkflowSchema>, 'actions' | 'trigger_config'> & {
  actions?: ActionInput[];
  trigger_config?: TriggerConfigInput;
};

/** POST …/trigger/ `{payload?}`: a JSON object of at most 8 KiB. */
export const triggerSchema = yup.object({
  payload: jsonObjectField(),
});
