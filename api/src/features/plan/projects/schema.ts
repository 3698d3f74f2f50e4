import * as yup from 'yup';
import { dateField, uuidField } from '../../../http/fields.ts';
import { PLAN_VISIBILITIES as VISIBILITIES } from '../../../db/tables.ts';
import { HEALTHS, descriptionField, nameField } from '../frame/schema.ts';

/** When a project runs and how it is doing (the DailyBot client sets them; null clears). */
const datesAndHealth = () => ({
  start_date: dateField().nullable(),
  target_date: dateField().nullable(),
  health: yup.string().oneOf(HEALTHS).nullable(),
});

/** CONTRACT §9 `{name, description?, goal?}`, and `visibility` (the spec names members-only projects). */
export const createProjectSchema = yup.object({
  name: nameField(200).required(),
  description: descriptionField(),
  goal: uuidField().nullable(),
  visibility: yup.string().oneOf(VISIBILITIES),
  ...datesAndHealth(),
});
export type CreateProjectInput = yup.InferType<typeof createProjectSchema>;

export const updateProjectSchema = yup.object({
  name: nameField(200),
  description: descriptionField(),
  goal: uuidField().nullable(),
  visibility: yup.string().oneOf(VISIBILITIES),
  ...datesAndHealth(),
});
export type UpdateProjectInput = yup.InferType<typeof updateProjectSchema>;

/** `POST …/reorder/`: one neighbour, or none (last). */
export const reorderProjectSchema = yup.object({
  before: uuidField().nullable(),
  after: uuidField().nullable(),
});
