import { yup } from '../../../http/validation.ts';
import { dateField, descriptionField, nameField } from '../frame/schema.ts';

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
