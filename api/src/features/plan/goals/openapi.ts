import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { goalRoutes } from './routes.ts';

const { str, uuid, nullableUuid, archived, times, visibility } = fields;

export const { operations, schemas } = planOpenApiPart(goalRoutes, {
  PlanGoal: { type: 'object', properties: { uuid, id: uuid, name: str, description: str, created_by: nullableUuid, ...archived, ...times } },
  PlanProject: { type: 'object', properties: { uuid, id: uuid, name: str, description: str, goal: nullableUuid, visibility, created_by: nullableUuid, ...archived, ...times } },
});
