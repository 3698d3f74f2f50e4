import * as yup from 'yup';
import { withAliases } from '../../../http/plan/aliases.ts';
import { uuidField } from '../../../http/fields.ts';
import { PLAN_MEMBER_ROLES as MEMBER_ROLES } from '../../../db/tables.ts';

/** `user_uuid` is the DailyBot client's name for `user`. */
export const addMemberSchema = withAliases(
  yup.object({
    user: uuidField().required(),
    role: yup.string().oneOf(MEMBER_ROLES),
  }),
  { user_uuid: 'user' },
);
export type AddMemberInput = yup.InferType<typeof addMemberSchema>;

/** `role` changes the member's role; an empty body (the DailyBot client's `member update`) answers the grant as it is. */
export const updateMemberSchema = yup.object({
  role: yup.string().oneOf(MEMBER_ROLES),
});
export type UpdateMemberInput = yup.InferType<typeof updateMemberSchema>;
