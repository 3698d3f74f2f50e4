import * as yup from 'yup';
import { timezoneField } from '../../http/fields.ts';
import { platformConnectionSchema } from '../chat-platform/schema.ts';

export const updateOrganizationSchema = yup.object({
  name: yup.string().trim().min(1).max(200),
  timezone: timezoneField(),
  image: yup.string().url().max(2048).nullable(),
  /** Chat platform connection (CONTRACT §10): `{kind, bot_token | webhook_url, channel_name?}`, null disconnects. */
  platform: platformConnectionSchema,
});
export type UpdateOrganizationInput = yup.InferType<typeof updateOrganizationSchema>;
