import * as yup from 'yup';
import { uuidField } from '../../http/fields.ts';

export const MAX_RECEIVERS = 100;

/**
 * POST /v1/kudos/ (CONTRACT §7, §12): `receivers` holds user or team uuids; `users_receivers` and
 * `teams_receivers` are typed subsets of it (the same uuid may appear in both). `company_value` is a company
 * value's uuid.
 */
export const giveKudosSchema = yup.object({
  // No .trim(): a transform keeps this hot body off the fast validation path; the service refuses a blank text.
  content: yup.string().min(1).max(5000).required(),
  receivers: yup.array(uuidField().required()).max(MAX_RECEIVERS),
  users_receivers: yup.array(uuidField().required()).max(MAX_RECEIVERS),
  teams_receivers: yup.array(uuidField().required()).max(MAX_RECEIVERS),
  company_value: uuidField().nullable(),
  is_anonymous: yup.boolean(),
});
export type GiveKudosInput = yup.InferType<typeof giveKudosSchema>;

export const companyValueSchema = yup.object({
  value: yup.string().trim().min(1).max(100).required(),
  emoji: yup.string().trim().max(32).nullable(),
  description: yup.string().trim().max(500).nullable(),
});
export type CompanyValueInput = yup.InferType<typeof companyValueSchema>;

export const updateCompanyValueSchema = yup.object({
  value: yup.string().trim().min(1).max(100),
  emoji: yup.string().trim().max(32).nullable(),
  description: yup.string().trim().max(500).nullable(),
});
export type UpdateCompanyValueInput = yup.InferType<typeof updateCompanyValueSchema>;

/** PATCH /v1/kudos/settings/ (admins): the daily limit per giver and the chat announcement. */
export const kudosSettingsSchema = yup.object({
  daily_limit: yup.number().integer().min(1).max(10_000),
  chat_announcements: yup.boolean(),
  chat_channel: yup.string().trim().min(1).max(200).nullable(),
});
export type KudosSettingsInput = yup.InferType<typeof kudosSettingsSchema>;

export const KUDOS_FILTERS = ['kudos_received', 'kudos_given'] as const;
export const PERIODS = ['week', 'month', 'quarter', 'year', 'all'] as const;
export type Period = (typeof PERIODS)[number];
