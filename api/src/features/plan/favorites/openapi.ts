import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { FAVORITE_TYPES } from '../../../db/tables.ts';
import { favoriteRoutes } from './routes.ts';

const { str, uuid, nullableStr, nullableUuid, dateTime } = fields;

export const { operations, schemas } = planOpenApiPart(favoriteRoutes, {
  PlanFavorite: {
    type: 'object',
    properties: {
      uuid, id: uuid, object_type: { enum: [...FAVORITE_TYPES] }, object_uuid: uuid,
      object: { type: 'object', properties: { uuid, name: str, key: nullableStr, board: nullableUuid }, description: 'name is a task\'s title; key is KEY-n for a task, the board key for a board' },
      created_at: dateTime,
    },
  },
});
