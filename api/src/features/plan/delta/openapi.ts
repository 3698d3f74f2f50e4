import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { deltaRoutes } from './routes.ts';

const { str, nullableStr, uuid, dateTime } = fields;
const list = (name: string) => ({ type: 'array', items: { $ref: `#/components/schemas/${name}` } });

export const { operations, schemas } = planOpenApiPart(deltaRoutes, {
  PlanBoardSnapshot: {
    type: 'object',
    properties: {
      board: { $ref: '#/components/schemas/PlanBoard' },
      states: list('PlanState'),
      labels: list('PlanLabel'),
      members: list('PlanMember'),
      tasks: { ...list('PlanTask'), description: 'Live tasks in board order (column by column, then rank)' },
      comment_counts: {
        type: 'object',
        additionalProperties: { type: 'integer', minimum: 1 },
        description: 'How many comments each live task has, by task uuid (a task without comments is left out). The delta feed keeps it current: a `comment` change `created` adds one to its `task`, `deleted` takes one away.',
      },
      delta_cursor: { ...str, description: 'Opaque; GET …/delta/?cursor= continues from here for 7 days' },
      generated_at: dateTime,
    },
  },
  PlanBoardDelta: {
    type: 'object',
    properties: {
      board: uuid,
      results: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            seq: { type: 'integer', description: 'Position in the board\'s change stream' },
            object_kind: { ...str, description: 'board, state, label, board_member, task, task_relation, task_participant, comment, attachment' },
            object_uuid: uuid,
            task: { ...fields.nullableUuid, description: 'The task the change belongs to: a task\'s own changes, and those of its comments, attachments, relations and participants; null otherwise' },
            change_kind: { enum: ['created', 'updated', 'moved', 'archived', 'restored', 'deleted'] },
            changed_fields: { type: 'array', items: str },
            snapshot: { description: 'The object as the API presents it after the change; null for deleted (a tombstone)' },
            actor: { type: ['object', 'null'], properties: { uuid } },
            agent_name: nullableStr,
            created_at: dateTime,
          },
        },
      },
      cursor: { ...str, description: 'Where the next request continues' },
      has_more: { type: 'boolean', description: 'More changes wait: ask again with cursor right away' },
    },
  },
});
