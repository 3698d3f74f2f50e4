import * as yup from 'yup';

/** POST /v1/cli/auth/request-code/ `{email}` (CONTRACT §4). */
export const requestCodeSchema = yup.object({
  email: yup.string().email().max(320).required(),
});
export type RequestCodeInput = yup.InferType<typeof requestCodeSchema>;

/**
 * POST /v1/cli/auth/verify-code/ `{email, code, organization_id?}`: `organization_id` is the organization's uuid
 * (its `id` is the same value), needed when the address belongs to several organizations.
 */
export const verifyCodeSchema = yup.object({
  email: yup.string().email().max(320).required(),
  code: yup.string().matches(/^\d{6}$/, { message: 'Enter the six digits of the code.' }).required(),
  organization_id: yup.string().max(64),
});
export type VerifyCodeInput = yup.InferType<typeof verifyCodeSchema>;
