import * as yup from 'yup';
import { uuidField } from '../../http/fields.ts';
import { ROLES } from '../../db/tables.ts';

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

/**
 * POST /v1/invitations/accept/ `{token, session?}`: the link of the invitation e-mail. `session: true` also signs
 * the person in with the web app's cookie, as POST /v1/cli/auth/session/ does.
 */
export const acceptInvitationSchema = yup.object({
  token: yup.string().matches(/^[0-9A-Za-z]{40}$/, { message: 'Not an invitation token.' }).required(),
  session: yup.boolean(),
});
export type AcceptInvitationInput = yup.InferType<typeof acceptInvitationSchema>;
