import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { pulseRoutes } from './routes.ts';

const { str, uuid } = fields;
const int = { type: 'integer' };
const counts = { tasks: { ...int, description: 'live tasks now' }, open: { ...int, description: 'live tasks not in a done or canceled column' }, created: int, completed: int, changed: { ...int, description: 'live tasks changed within the period' }, archived: int };

export const { operations, schemas } = planOpenApiPart(pulseRoutes, {
  PlanPulse: {
    type: 'object',
    properties: {
      start_date: { type: 'string', format: 'date' },
      end_date: { type: 'string', format: 'date' },
      totals: { type: 'object', properties: counts },
      states: { type: 'array', items: { type: 'object', properties: { state: uuid, board: uuid, name: str, category: str, ...counts } } },
      owners: { type: 'array', items: { type: 'object', properties: { owner: { oneOf: [{ $ref: '#/components/schemas/PlanPerson' }, { type: 'null' }] }, ...counts } } },
    },
  },
});
