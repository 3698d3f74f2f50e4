import * as yup from 'yup';
import { dateField } from '../../../http/fields.ts';
import { descriptionField, nameField } from '../frame/schema.ts';

export const createMilestoneSchema = yup.object({
  name: nameField(200).required(),
  description: descriptionField(),
  target_date: dateField().nullable(),
});
export type CreateMilestoneInput = yup.InferType<typeof createMilestoneSchema>;

export const updateMilestoneSchema = yup.object({
  name: nameField(200),
  description: descriptionField(),
  target_date: dateField().nullable(),
});
export type UpdateMilestoneInput = yup.InferType<typeof updateMilestoneSchema>;
