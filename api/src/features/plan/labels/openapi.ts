import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { labelRoutes } from './routes.ts';

const { str, uuid, archived, times } = fields;

export const { operations, schemas } = planOpenApiPart(labelRoutes, {
  PlanLabel: { type: 'object', properties: { uuid, id: uuid, board: uuid, name: str, color: str, description: str, ...archived, ...times } },
});
