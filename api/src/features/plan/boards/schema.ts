import * as yup from 'yup';
import { uuidField } from '../../../http/fields.ts';
import { PLAN_VISIBILITIES as VISIBILITIES } from '../../../db/tables.ts';
import { descriptionField, nameField } from '../frame/schema.ts';

/** CONTRACT §9: `key` is 2–10 characters, A–Z and 0–9, starting with a letter. */
export const BOARD_KEY = /^[A-Z][A-Z0-9]{1,9}$/;
const keyField = () => yup.string().matches(BOARD_KEY, { message: 'Must be 2 to 10 characters A-Z and 0-9, starting with a letter.' });

export const createBoardSchema = yup.object({
  name: nameField(200).required(),
  key: keyField().required(),
  visibility: yup.string().oneOf(VISIBILITIES),
  project: uuidField().nullable(),
  description: descriptionField(),
});
export type CreateBoardInput = yup.InferType<typeof createBoardSchema>;

export const updateBoardSchema = yup.object({
  name: nameField(200),
  key: keyField(),
  visibility: yup.string().oneOf(VISIBILITIES),
  project: uuidField().nullable(),
  description: descriptionField(),
});
export type UpdateBoardInput = yup.InferType<typeof updateBoardSchema>;

/** `POST …/reorder/`: one neighbour (or none: last), and a project to move into (null: out of any). */
export const reorderBoardSchema = yup.object({
  before: uuidField().nullable(),
  after: uuidField().nullable(),
  project: uuidField().nullable(),
});
