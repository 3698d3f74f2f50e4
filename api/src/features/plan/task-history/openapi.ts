import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { taskHistoryRoutes } from './routes.ts';

const { str, nullableStr, uuid, nullableUuid, dateTime } = fields;
const actor = { oneOf: [{ $ref: '#/components/schemas/PlanPerson' }, { type: 'null' }] };

export const { operations, schemas } = planOpenApiPart(taskHistoryRoutes, {
  PlanTaskEvent: {
    type: 'object',
    properties: {
      id: { type: 'integer' }, seq: { type: 'integer', description: 'Position in the board\'s change stream' }, board: nullableUuid,
      object_kind: str, object_uuid: uuid, change_kind: { enum: ['created', 'updated', 'moved', 'archived', 'restored', 'deleted'] },
      changed_fields: { type: 'array', items: str }, snapshot: { description: 'The object as the API presented it after the change; null for deleted' },
      actor, agent_name: nullableStr, created_at: dateTime,
    },
  },
  PlanTaskActivity: {
    type: 'object',
    properties: {
      id: { type: 'integer' }, action: { type: 'string', description: 'object kind and change, as task.moved or task_relation.created' },
      object: { type: 'object', properties: { kind: str, uuid } }, actor, agent_name: nullableStr,
      changes: { type: 'array', items: { type: 'object', properties: { field: str, from: {}, to: {} } } },
      snapshot: { description: 'For what hangs on the task (a relation, a participant): the object as last logged' },
      created_at: dateTime,
    },
  },
});
