import * as yup from 'yup';
import { withAliases } from '../../../http/plan/aliases.ts';
import { dateField } from '../../../http/fields.ts';
import { descriptionField, nameField } from '../frame/schema.ts';

/** `date` is the DailyBot client's name for `target_date`. */
export const createMilestoneSchema = withAliases(
  yup.object({
    name: nameField(200).required(),
    description: descriptionField(),
    target_date: dateField().nullable(),
  }),
  { date: 'target_date' },
);
export type CreateMilestoneInput = yup.InferType<typeof createMilestoneSchema>;

export const updateMilestoneSchema = withAliases(
  yup.object({
    name: nameField(200),
    description: descriptionField(),
    target_date: dateField().nullable(),
  }),
  { date: 'target_date' },
);
export type UpdateMilestoneInput = yup.InferType<typeof updateMilestoneSchema>;
