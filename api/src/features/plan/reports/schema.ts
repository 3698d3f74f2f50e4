import * as yup from 'yup';
import { isUuid } from '../../../lib/ids.ts';
import { nameField } from '../frame/schema.ts';
import { channelOf, scopeField } from '../notifications/schema.ts';
import type { ChannelInput } from '../notifications/schema.ts';

/**
 * A scheduled report (CONTRACT §9). The schedule's own fields (kind, weekdays, time, timezone, channel) are read
 * loosely here and checked by schedule.ts, which answers 400 invalid_schedule with extra.parameter naming the field.
 */
const loose = () => yup.mixed();

export const createReportSchema = yup.object({
  name: nameField(200).required(),
  kind: loose(),
  enabled: yup.boolean(),
  weekdays: loose(),
  time: loose(),
  timezone: loose(),
  /** A channel's external_id or {"external_id": …}; null (the DailyBot client's --no-channel) stops posting to one. */
  channel: loose().nullable(),
  /** Addresses of people of the organization, or their user uuids (the DailyBot client's way). */
  email_recipients: yup
    .array(yup.string().max(254).test('recipient', 'Enter a valid e-mail address.', (v) => v === undefined || isUuid(v) || yup.string().email().isValidSync(v)).required())
    .max(50)
    .nullable(),
  scope: scopeField(),
});
export type CreateReportInput = yup.InferType<typeof createReportSchema>;

export const updateReportSchema = createReportSchema.shape({ name: nameField(200) });
export type UpdateReportInput = yup.InferType<typeof updateReportSchema>;

/**
 * A report's channel as sent: a channel's external_id, or the DailyBot client's `{"external_id": …}` (or
 * `{"id": …}`); null for none; false for anything else.
 */
export function reportChannelOf(value: unknown): string | null | false {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'object' && !Array.isArray(value) && (value as { type?: unknown }).type === 'email') return false;
  if (typeof value !== 'string' && (typeof value !== 'object' || Array.isArray(value))) return false;
  return channelOf(value as ChannelInput) ?? false;
}
