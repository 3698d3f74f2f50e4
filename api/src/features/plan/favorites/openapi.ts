import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { FAVORITE_TYPES } from '../../../db/tables.ts';
import { favoriteRoutes } from './routes.ts';

const { str, uuid, nullableStr, nullableUuid, dateTime } = fields;

export const { operations, schemas } = planOpenApiPart(favoriteRoutes, {
  PlanFavorite: {
    type: 'object',
    properties: {
      uuid, id: uuid, object_type: { enum: [...FAVORITE_TYPES] }, object_uuid: uuid,
      target_type: { enum: [...FAVORITE_TYPES], description: 'object_type again (the DailyBot client\'s name)' }, target_uuid: { ...uuid, description: 'object_uuid again' },
      rank: { type: 'integer', description: 'its place in your list, from 1 (the newest)' },
      object: { type: 'object', properties: { uuid, name: str, key: nullableStr, board: nullableUuid }, description: 'name is a task\'s title; key is KEY-n for a task, the board key for a board; board is a task\'s or a view\'s board' },
      created_at: dateTime,
    },
  },
});
