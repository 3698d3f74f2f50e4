import * as yup from 'yup';
import { timezoneField } from '../../http/fields.ts';
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
});
export type UpdateUserInput = yup.InferType<typeof updateUserSchema>;

export const ADMIN_ONLY_USER_FIELDS = ['role', 'is_active'] as const;
