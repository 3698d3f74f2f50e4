import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { taskRoutes } from './routes.ts';

const { str, nullableStr, uuid, nullableUuid, dateTime, nullableDateTime } = fields;
const date = { type: ['string', 'null'], format: 'date' };
const taskRef = { type: 'object', properties: { uuid, id: uuid, key: str, title: str } };

export const { operations, schemas } = planOpenApiPart(taskRoutes, {
  PlanTask: {
    type: 'object',
    description: 'A task. `include` adds participants (user uuids), relations and children (live sub-task uuids).',
    required: [
      'uuid', 'id', 'key', 'title', 'description', 'board', 'state', 'owner', 'priority', 'estimate', 'start_date', 'due_date', 'labels', 'parent_task',
      'milestone', 'version', 'rank', 'created_by', 'created_at', 'updated_at', 'completed_at', 'archived_at',
    ],
    properties: {
      uuid, id: uuid, key: { type: 'string', description: 'KEY-n: the board key and the number the board gave the task' },
      title: str, description: str, board: uuid, state: uuid, owner: nullableUuid,
      priority: { type: ['integer', 'null'], minimum: 1, maximum: 5 }, estimate: { type: ['number', 'null'] },
      start_date: date, due_date: date, labels: { type: 'array', items: uuid }, parent_task: nullableUuid, milestone: nullableUuid,
      version: { type: 'integer', description: 'Goes up by one with every change; send it back (or If-Match) to update' },
      rank: { type: 'string', description: 'Fractional index ordering the tasks of a column' },
      created_by: nullableUuid, created_at: dateTime, updated_at: dateTime, completed_at: nullableDateTime, archived_at: nullableDateTime,
      participants: { type: 'array', items: uuid }, relations: { type: 'array', items: { $ref: '#/components/schemas/PlanTaskRelation' } }, children: { type: 'array', items: uuid },
    },
  },
  PlanTaskRelation: {
    type: 'object',
    properties: {
      uuid, id: uuid,
      relation_type: { enum: ['blocks', 'blocked_by', 'relates_to', 'duplicates', 'duplicated_by'], description: 'From the side of the task it is read from' },
      direction: { enum: ['outgoing', 'incoming'], description: 'outgoing: made from this task; incoming: from the other one' },
      task: taskRef, other_task: { ...taskRef, description: 'task again (the DailyBot client\'s name)' }, created_by: nullableStr, created_at: dateTime,
    },
  },
  PlanTaskParticipant: {
    type: 'object',
    description: 'The person (their fields, and again as member), their role on the task, why they are listed, and whether they muted it',
    properties: {
      uuid, id: uuid, full_name: str, name: str, member: { $ref: '#/components/schemas/PlanPerson' },
      role: { enum: ['participant', 'watcher'] }, source: { enum: ['manual', 'owner', 'creator'] }, is_muted: { type: 'boolean' },
    },
  },
  PlanTaskSubscription: {
    type: 'object',
    properties: { task: uuid, subscribed: { type: 'boolean' }, reason: { enum: ['manual', 'owner', 'participant', 'creator', null] } },
  },
});
