import * as yup from 'yup';
import { uuidField } from '../../../http/fields.ts';
import { colorField, nameField } from '../frame/schema.ts';

/** CONTRACT §9 state categories. */
export const CATEGORIES = ['backlog', 'todo', 'in_progress', 'done', 'canceled'] as const;
export type Category = (typeof CATEGORIES)[number];

export const createStateSchema = yup.object({
  name: nameField(100).required(),
  category: yup.string().oneOf(CATEGORIES).required(),
  color: colorField(),
});
export type CreateStateInput = yup.InferType<typeof createStateSchema>;

/** Rename, re-categorize, recolour; `is_default: true` makes this the column new tasks land in. */
export const updateStateSchema = yup.object({
  name: nameField(100),
  category: yup.string().oneOf(CATEGORIES),
  color: colorField(),
  is_default: yup.boolean(),
});
export type UpdateStateInput = yup.InferType<typeof updateStateSchema>;

export const archiveStateSchema = yup.object({
  migrate_to: uuidField().nullable(),
});
export type ArchiveStateInput = yup.InferType<typeof archiveStateSchema>;

export const reorderStatesSchema = yup.object({
  order: yup.array(yup.string().required()).max(1000).required(),
});
export type ReorderStatesInput = yup.InferType<typeof reorderStatesSchema>;
