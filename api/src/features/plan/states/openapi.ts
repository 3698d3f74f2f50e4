import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { stateRoutes } from './routes.ts';

const { str, uuid, archived, times } = fields;

export const { operations, schemas } = planOpenApiPart(stateRoutes, {
  PlanState: {
    type: 'object',
    properties: {
      uuid, id: uuid, board: uuid, name: str, category: { enum: ['backlog', 'todo', 'in_progress', 'done', 'canceled'] }, position: { type: 'integer' },
      color: str, is_default: { type: 'boolean' }, ...archived, ...times,
    },
  },
});
