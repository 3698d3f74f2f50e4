import * as yup from 'yup';
import { colorField, nameField } from '../frame/schema.ts';

export const createLabelSchema = yup.object({
  name: nameField(100).required(),
  color: colorField(),
});
export type CreateLabelInput = yup.InferType<typeof createLabelSchema>;

export const updateLabelSchema = yup.object({
  name: nameField(100),
  color: colorField(),
});
export type UpdateLabelInput = yup.InferType<typeof updateLabelSchema>;
