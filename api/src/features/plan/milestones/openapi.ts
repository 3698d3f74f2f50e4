import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { milestoneRoutes } from './routes.ts';

const { str, uuid, times } = fields;

export const { operations, schemas } = planOpenApiPart(milestoneRoutes, {
  PlanMilestone: { type: 'object', properties: { uuid, id: uuid, project: uuid, name: str, description: str, target_date: { type: ['string', 'null'], format: 'date' }, ...times } },
});
