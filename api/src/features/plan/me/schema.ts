import * as yup from 'yup';
import { dateTimeField, timezoneField } from '../../../http/fields.ts';

export const activityCursorSchema = yup.object({
  last_seen_at: dateTimeField().nullable().required(),
});
export type ActivityCursorInput = yup.InferType<typeof activityCursorSchema>;

/** The daily briefing: a partial update (only what is sent changes). */
export const briefingSchema = yup.object({
  enabled: yup.boolean(),
  /** Local time of day it is sent, HH:MM. */
  time: yup.string().matches(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'A time of day as HH:MM (00:00 to 23:59).' }),
  timezone: timezoneField(),
  /** Days it is sent, 0 (Sunday) to 6. */
  weekdays: yup.array(yup.number().integer().min(0).max(6).required()).min(1).max(7),
});
export type BriefingInput = yup.InferType<typeof briefingSchema>;

/** Personal notification preferences: kinds turned on or off (inbox and e-mail alike). */
export const notificationPrefsSchema = yup.object({
  items: yup
    .array(yup.object({ kind: yup.string().max(64).required(), enabled: yup.boolean().required() }).required())
    .max(100),
  /** Recognised so the client's field is not unknown; only null (no pause) is taken today. */
  paused_until: yup.mixed().nullable(),
});
export type NotificationPrefsInput = yup.InferType<typeof notificationPrefsSchema>;
