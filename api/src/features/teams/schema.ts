import * as yup from 'yup';
import { uuidField } from '../../http/fields.ts';

export const createTeamSchema = yup.object({
  name: yup.string().trim().min(1).max(200).required(),
  is_default: yup.boolean(),
  active: yup.boolean(),
});
export type CreateTeamInput = yup.InferType<typeof createTeamSchema>;

export const updateTeamSchema = yup.object({
  name: yup.string().trim().min(1).max(200),
  is_default: yup.boolean(),
  active: yup.boolean(),
});
export type UpdateTeamInput = yup.InferType<typeof updateTeamSchema>;

/** POST /v1/teams/{uuid}/member/ `{members: [{uuid}]}` (CONTRACT §3). */
export const addMembersSchema = yup.object({
  members: yup.array(yup.object({ uuid: uuidField().required() }).required()).min(1).max(500).required(),
});
export type AddMembersInput = yup.InferType<typeof addMembersSchema>;
