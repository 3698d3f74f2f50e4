import * as yup from 'yup';
import { uuidField } from '../../../http/fields.ts';
import { colorField, nameField } from '../frame/schema.ts';

/** A label's description; the DailyBot client sends one with a label (and `is_archived` to archive or restore). */
const labelDescription = () => yup.string().max(1000);

export const createLabelSchema = yup.object({
  name: nameField(100).required(),
  color: colorField(),
  description: labelDescription(),
  is_archived: yup.boolean(),
});
export type CreateLabelInput = yup.InferType<typeof createLabelSchema>;

/** `POST /v1/plan/labels/`: an organization label, or with `board` that board's. */
export const createOrganizationLabelSchema = createLabelSchema.shape({ board: uuidField().nullable() });

export const updateLabelSchema = yup.object({
  name: nameField(100),
  color: colorField(),
  description: labelDescription(),
  is_archived: yup.boolean(),
});
export type UpdateLabelInput = yup.InferType<typeof updateLabelSchema>;
