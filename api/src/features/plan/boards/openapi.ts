import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { boardRoutes } from './routes.ts';

const { str, uuid, nullableUuid, archived, times, visibility } = fields;

export const { operations, schemas } = planOpenApiPart(boardRoutes, {
  PlanBoard: { type: 'object', properties: { uuid, id: uuid, key: str, name: str, description: str, visibility, project: nullableUuid, created_by: nullableUuid, ...archived, ...times } },
});
