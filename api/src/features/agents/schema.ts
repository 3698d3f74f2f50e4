import * as yup from 'yup';
import { dateTimeField, headerValueField, jsonObjectField } from '../../http/fields.ts';
import { MESSAGE_TYPES, SENDER_TYPES } from '../../db/tables.ts';

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;
export const MAX_EMAIL_RECIPIENTS = 50;
export const MAX_SUBJECT = 512;

/** The agent name is checked against the attribution alphabet by the service (400 invalid_agent_attribution). */
const agentName = () => yup.string().required();
const lines = () => yup.array(yup.string().required().max(10_000)).max(200);

export const reportSchema = yup.object({
  agent_name: agentName(),
  content: yup.string().required().max(50_000),
  structured: yup
    .object({ completed: lines(), in_progress: lines(), blockers: lines() })
    .nullable()
    .default(undefined),
  metadata: jsonObjectField().nullable(),
  is_milestone: yup.boolean(),
  co_authors: yup.array(yup.string().required().max(320)).max(100),
});
export type ReportInput = yup.InferType<typeof reportSchema>;

export const healthSchema = yup.object({
  agent_name: agentName(),
  ok: yup.boolean().required(),
  message: yup.string().max(1000).nullable(),
});
export type HealthInput = yup.InferType<typeof healthSchema>;

export const messageSchema = yup.object({
  agent_name: agentName(),
  content: yup.string().required().max(50_000),
  message_type: yup.string().oneOf(MESSAGE_TYPES),
  metadata: jsonObjectField().nullable(),
  expires_at: dateTimeField().nullable(),
  sender_type: yup.string().oneOf(SENDER_TYPES),
  sender_name: yup.string().max(320).nullable(),
});
export type MessageInput = yup.InferType<typeof messageSchema>;

export const readSchema = yup.object({
  message_ids: yup.array(yup.string().required().max(64)).required().max(500),
});
export type ReadInput = yup.InferType<typeof readSchema>;

export const agentEmailSchema = yup.object({
  agent_name: agentName(),
  to: yup
    .array(yup.string().required().max(254).matches(EMAIL, { message: 'Enter a valid e-mail address.' }))
    .required()
    .min(1)
    .max(MAX_EMAIL_RECIPIENTS),
  subject: yup.string().required().min(1).max(MAX_SUBJECT),
  body_html: yup.string().required().min(1).max(512 * 1024),
  metadata: jsonObjectField().nullable(),
});
export type AgentEmailInput = yup.InferType<typeof agentEmailSchema>;

export const webhookSchema = yup.object({
  agent_name: agentName(),
  webhook_url: yup.string().required().max(2048),
  webhook_secret: headerValueField('X-Webhook-Secret').required().min(1).max(512),
});
export type WebhookInput = yup.InferType<typeof webhookSchema>;

export const webhookDeleteSchema = yup.object({ agent_name: agentName() });
export type WebhookDeleteInput = yup.InferType<typeof webhookDeleteSchema>;

export const registerSchema = yup.object({
  challenge_id: yup.string().required().max(64),
  answer: yup.mixed<number | string>().required().test('answer', 'Must be a number.', (v) => typeof v === 'number' || (typeof v === 'string' && /^-?\d+$/.test(v.trim()))),
  reason: yup.string().required().min(1).max(1000),
  org_name: yup.string().trim().required().min(1).max(200),
  agent_name: agentName(),
  timezone: yup.string().required().max(64),
  contact_email: yup.string().max(254).matches(EMAIL, { message: 'Enter a valid e-mail address.' }).nullable(),
});
export type RegisterInput = yup.InferType<typeof registerSchema>;

export const claimSchema = yup.object({ claim_token: yup.string().required().max(200) });
export type ClaimInput = yup.InferType<typeof claimSchema>;
