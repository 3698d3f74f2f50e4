import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { commentRoutes } from './routes.ts';

const { str, nullableStr, uuid, nullableUuid, nullableDateTime, times, person } = fields;

export const { operations, schemas } = planOpenApiPart(commentRoutes, {
  PlanComment: {
    type: 'object',
    properties: {
      uuid, id: uuid, task: uuid, parent: nullableUuid, body: str, author: person, agent_name: nullableStr,
      mentions: { type: 'array', items: uuid, description: 'People the body mentions as <@user-uuid> who may read the task' },
      reply_count: { type: 'integer' }, ...times, edited_at: nullableDateTime,
    },
  },
});
