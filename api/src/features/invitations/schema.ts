import { uuidField, yup } from '../../http/validation.ts';
import { ROLES } from '../users/repository.ts';

/** POST /v1/invite-user/ (CONTRACT §3). */
export const inviteUserSchema = yup.object({
  email: yup.string().email().max(320).required(),
  first_name: yup.string().trim().max(150),
  last_name: yup.string().trim().max(150),
  role: yup.string().oneOf(ROLES),
  team_uuids: yup.array(uuidField().required()).max(100),
  is_guest: yup.boolean(),
});
export type InviteUserInput = yup.InferType<typeof inviteUserSchema>;
