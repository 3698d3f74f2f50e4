import * as yup from 'yup';
import { FAVORITE_TYPES } from '../../../db/tables.ts';
import { uuidField } from '../../../http/fields.ts';

export const createFavoriteSchema = yup.object({
  object_type: yup.string().oneOf(FAVORITE_TYPES).required(),
  object_uuid: uuidField().required(),
});
export type CreateFavoriteInput = yup.InferType<typeof createFavoriteSchema>;
