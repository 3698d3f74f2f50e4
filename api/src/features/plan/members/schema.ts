import { uuidField, yup } from '../../../http/validation.ts';
import { MEMBER_ROLES } from '../frame/access.ts';

export const addMemberSchema = yup.object({
  user: uuidField().required(),
  role: yup.string().oneOf(MEMBER_ROLES),
});
export type AddMemberInput = yup.InferType<typeof addMemberSchema>;

export const updateMemberSchema = yup.object({
  role: yup.string().oneOf(MEMBER_ROLES).required(),
});
export type UpdateMemberInput = yup.InferType<typeof updateMemberSchema>;
