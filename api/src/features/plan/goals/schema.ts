import * as yup from 'yup';
import { dateField, uuidField } from '../../../http/fields.ts';
import { HEALTHS, descriptionField, nameField } from '../frame/schema.ts';

/** A goal's period and the status its owners declare (the DailyBot client sets them; null clears). */
const periodAndStatus = () => ({
  period_start: dateField().nullable(),
  period_end: dateField().nullable(),
  status: yup.string().oneOf(HEALTHS).nullable(),
});

export const createGoalSchema = yup.object({
  name: nameField(200).required(),
  description: descriptionField(),
  ...periodAndStatus(),
});
export type CreateGoalInput = yup.InferType<typeof createGoalSchema>;

export const updateGoalSchema = yup.object({
  name: nameField(200),
  description: descriptionField(),
  ...periodAndStatus(),
});
export type UpdateGoalInput = yup.InferType<typeof updateGoalSchema>;

export const linkProjectSchema = yup.object({
  project: uuidField().required(),
});
export type LinkProjectInput = yup.InferType<typeof linkProjectSchema>;
