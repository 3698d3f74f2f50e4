import * as yup from 'yup';
import { uuidField } from '../../../http/fields.ts';
import { PLAN_VISIBILITIES as VISIBILITIES } from '../../../db/tables.ts';
import { descriptionField, nameField } from '../frame/schema.ts';

/** CONTRACT §9 `{name, description?, goal?}`, and `visibility` (the spec names members-only projects). */
export const createProjectSchema = yup.object({
  name: nameField(200).required(),
  description: descriptionField(),
  goal: uuidField().nullable(),
  visibility: yup.string().oneOf(VISIBILITIES),
});
export type CreateProjectInput = yup.InferType<typeof createProjectSchema>;

export const updateProjectSchema = yup.object({
  name: nameField(200),
  description: descriptionField(),
  goal: uuidField().nullable(),
  visibility: yup.string().oneOf(VISIBILITIES),
});
export type UpdateProjectInput = yup.InferType<typeof updateProjectSchema>;
