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

/**
 * Personal notification preferences, a partial update: `items` change kinds (`enabled` turns a kind off or on
 * everywhere; `chat` and `email`, the DailyBot client's matrix, one channel each), `destination` says where chat
 * notifications go (`{"type": "dm"}`, or `{"type": "channel", "channel": {"external_id": …}}`: a public channel).
 */
export const notificationPrefsSchema = yup.object({
  items: yup
    .array(
      yup
        .object({ kind: yup.string().max(64).required(), enabled: yup.boolean(), chat: yup.boolean(), email: yup.boolean() })
        .test('says-something', 'Say what to change: enabled, chat or email.', (item) => item.enabled !== undefined || item.chat !== undefined || item.email !== undefined)
        .required(),
    )
    .max(100),
  destination: yup
    .object({
      type: yup.string().oneOf(['dm', 'channel'] as const).required(),
      channel: yup.object({ external_id: yup.string().min(1).max(200), id: yup.string().min(1).max(200) }).default(undefined),
    })
    .default(undefined),
  /** Recognised so the client's field is not unknown; only null (no pause) is taken today. */
  paused_until: yup.mixed().nullable(),
});
export type NotificationPrefsInput = yup.InferType<typeof notificationPrefsSchema>;
