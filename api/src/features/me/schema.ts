import * as yup from 'yup';

/** POST /v1/me/chat-accounts/: the token of the link `/rollcall link` gave (Discord). */
export const linkChatAccountSchema = yup.object({
  token: yup.string().trim().required().max(64),
}).noUnknown();
export type LinkChatAccountInput = yup.InferType<typeof linkChatAccountSchema>;
import { dateField, holidayCalendarField, timezoneField } from '../../http/fields.ts';
import { LANGUAGES } from '../../lib/personal-settings.ts';

/**
 * PATCH /v1/me/: the person's own settings (issue 36). Absent fields stay as they are; null clears `timezone` (the
 * organization's then), `language` (English in messages, the browser's in the app) and `holiday_calendar` (the
 * check-in's then).
 */
export const updateMeSchema = yup.object({
  first_name: yup.string().trim().max(150),
  last_name: yup.string().trim().max(150),
  timezone: timezoneField().nullable(),
  language: yup.string().oneOf(LANGUAGES).nullable(),
  holiday_calendar: holidayCalendarField(),
  notifications: yup.object({ reminders: yup.boolean(), report_emails: yup.boolean() }).default(undefined),
  /** Replaces the person's time off: local days, inclusive (db/time-off.ts). */
  time_off: yup.array(yup.object({ start: dateField().required(), end: dateField().required() })).max(50),
});
export type UpdateMeInput = yup.InferType<typeof updateMeSchema>;
