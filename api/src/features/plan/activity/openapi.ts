import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { activityRoutes } from './routes.ts';

const { str, nullableStr, uuid, nullableUuid, dateTime } = fields;

export const { operations, schemas } = planOpenApiPart(activityRoutes, {
  PlanActivityEntry: {
    type: 'object',
    properties: {
      id: { type: 'integer' }, seq: { type: 'integer', description: 'Position in its board\'s (or the organization\'s) change stream' },
      action: { ...str, description: 'object kind and change, as task.moved or label.created' },
      board: nullableUuid, project: nullableUuid, task: { ...nullableUuid, description: 'The task the change belongs to' },
      object_kind: str, object_uuid: uuid, change_kind: { enum: ['created', 'updated', 'moved', 'archived', 'restored', 'deleted'] },
      changed_fields: { type: 'array', items: str }, snapshot: { description: 'The object as the API presented it after the change; null for deleted' },
      actor: { oneOf: [{ $ref: '#/components/schemas/PlanPerson' }, { type: 'null' }] }, agent_name: nullableStr, created_at: dateTime,
    },
  },
});
