import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { VIEW_VISIBILITIES } from '../../../db/tables.ts';
import { viewRoutes } from './routes.ts';

const { str, uuid, nullableUuid, times } = fields;

export const { operations, schemas } = planOpenApiPart(viewRoutes, {
  PlanView: {
    type: 'object',
    properties: {
      uuid, id: uuid, board: nullableUuid, project: nullableUuid, name: str, visibility: { enum: [...VIEW_VISIBILITIES] },
      filters: { type: 'object', description: 'The task list filters the view stands for' }, sort: { type: 'array', items: str },
      owner: nullableUuid, version: { type: 'integer' }, ...times,
    },
  },
});
