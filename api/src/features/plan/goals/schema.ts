import * as yup from 'yup';
import { uuidField } from '../../../http/fields.ts';
import { descriptionField, nameField } from '../frame/schema.ts';

export const createGoalSchema = yup.object({
  name: nameField(200).required(),
  description: descriptionField(),
});
export type CreateGoalInput = yup.InferType<typeof createGoalSchema>;

export const updateGoalSchema = yup.object({
  name: nameField(200),
  description: descriptionField(),
});
export type UpdateGoalInput = yup.InferType<typeof updateGoalSchema>;

export const linkProjectSchema = yup.object({
  project: uuidField().required(),
});
export type LinkProjectInput = yup.InferType<typeof linkProjectSchema>;
