import * as yup from 'yup';
import { withAliases } from '../../../http/plan/aliases.ts';
import { FAVORITE_TYPES } from '../../../db/tables.ts';
import { uuidField } from '../../../http/fields.ts';

/** `target_type` and `target_uuid` are the DailyBot client's names for `object_type` and `object_uuid`. */
export const createFavoriteSchema = withAliases(
  yup.object({
    object_type: yup.string().oneOf(FAVORITE_TYPES).required(),
    object_uuid: uuidField().required(),
  }),
  { target_type: 'object_type', target_uuid: 'object_uuid' },
);
export type CreateFavoriteInput = yup.InferType<typeof createFavoriteSchema>;
