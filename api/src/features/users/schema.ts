import * as yup from 'yup';
import { dateField, timezoneField } from '../../http/fields.ts';
import { ROLES } from '../../db/tables.ts';

/** PATCH /v1/users/{uuid}/: profile fields for the user themselves; role and is_active for admins only. */
export const updateUserSchema = yup.object({
  first_name: yup.string().trim().max(150),
  last_name: yup.string().trim().max(150),
  timezone: timezoneField().nullable(),
  occupation: yup.string().trim().max(200).nullable(),
  image: yup.string().url().max(2048).nullable(),
  role: yup.string().oneOf(ROLES),
  is_active: yup.boolean(),
  /** Replaces the person's time off: local days, inclusive (features/users/time-off.ts). */
  time_off: yup.array(yup.object({ start: dateField().required(), end: dateField().required() })).max(50),
});
export type UpdateUserInput = yup.InferType<typeof updateUserSchema>;

export const ADMIN_ONLY_USER_FIELDS = ['role', 'is_active'] as const;
