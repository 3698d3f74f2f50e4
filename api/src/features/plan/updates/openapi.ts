import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { updateRoutes } from './routes.ts';

const { str, nullableStr, uuid, nullableDateTime, times, person } = fields;

export const { operations, schemas } = planOpenApiPart(updateRoutes, {
  PlanProjectUpdate: {
    type: 'object',
    properties: { uuid, id: uuid, project: uuid, body: str, health: { enum: ['on_track', 'at_risk', 'off_track', null] }, author: person, agent_name: nullableStr, ...times, edited_at: nullableDateTime },
  },
});
