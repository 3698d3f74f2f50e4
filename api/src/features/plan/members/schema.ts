import * as yup from 'yup';
import { uuidField } from '../../../http/fields.ts';
import { PLAN_MEMBER_ROLES as MEMBER_ROLES } from '../../../db/tables.ts';

export const addMemberSchema = yup.object({
  user: uuidField().required(),
  role: yup.string().oneOf(MEMBER_ROLES),
});
export type AddMemberInput = yup.InferType<typeof addMemberSchema>;

export const updateMemberSchema = yup.object({
  role: yup.string().oneOf(MEMBER_ROLES).required(),
});
export type UpdateMemberInput = yup.InferType<typeof updateMemberSchema>;
