import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { taskBulkRoutes } from './routes.ts';

const { str } = fields;

export const { operations, schemas } = planOpenApiPart(taskBulkRoutes, {
  PlanTaskBulkResult: {
    type: 'object',
    properties: {
      operation: str, atomic: { type: 'boolean' }, committed: { type: 'boolean', description: 'False when an atomic call was undone' },
      succeeded: { type: 'integer' }, failed: { type: 'integer' },
      results: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            index: { type: 'integer' }, status: { type: 'integer', description: 'What the single-task call would have answered' },
            task: { $ref: '#/components/schemas/PlanTask' }, error: { description: 'The refusal body: {detail, code, extra?}, or a field map' },
          },
        },
      },
    },
  },
});
