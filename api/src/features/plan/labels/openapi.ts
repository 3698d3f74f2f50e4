import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { labelRoutes } from './routes.ts';

const { str, uuid, nullableUuid, archived, times } = fields;

export const { operations, schemas } = planOpenApiPart(labelRoutes, {
  PlanLabel: { type: 'object', properties: { uuid, id: uuid, board: { ...nullableUuid, description: 'The label\'s board; null for an organization label, which every board of the organization offers' }, name: str, color: str, description: str, ...archived, ...times } },
});
