import { planOpenApiPart } from '../../../http/plan/openapi.ts';
import { timelineRoutes } from './routes.ts';

const day = { type: 'string', format: 'date' };

export const { operations, schemas } = planOpenApiPart(timelineRoutes, {
  PlanTimelineItem: {
    type: 'object',
    properties: {
      starts_on: { ...day, description: 'start_date, else due_date' },
      ends_on: { ...day, description: 'due_date, else start_date' },
      task: { $ref: '#/components/schemas/PlanTask' },
    },
  },
});
