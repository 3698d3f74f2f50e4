import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { memberRoutes } from './routes.ts';

const { uuid, dateTime, person } = fields;

export const { operations, schemas } = planOpenApiPart(memberRoutes, {
  PlanMember: { type: 'object', properties: { uuid, id: uuid, user: person, role: { enum: ['manager', 'member'] }, created_at: dateTime } },
});
