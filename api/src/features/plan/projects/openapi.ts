import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { projectRoutes } from './routes.ts';

const { str, uuid, nullableUuid, archived, times, visibility } = fields;

export const { operations, schemas } = planOpenApiPart(projectRoutes, {
  PlanProject: { type: 'object', properties: { uuid, id: uuid, name: str, description: str, goal: nullableUuid, visibility, created_by: nullableUuid, ...archived, ...times } },
});
