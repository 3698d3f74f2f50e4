import { planOpenApiPart } from '../../../http/plan/openapi.ts';
import { GROUP_BY, SUB_GROUP_BY } from './service.ts';
import { taskBoardRoutes } from './routes.ts';

const cell = {
  type: 'object',
  properties: {
    key: { type: 'string', description: 'the group\'s key: a uuid, a category, a priority 1–5, or none' }, name: { type: 'string' },
    count: { type: 'integer', description: 'its tasks, all of them' }, tasks: { type: 'array', items: { $ref: '#/components/schemas/PlanTask' } },
    next_offset: { type: ['integer', 'null'], description: 'the offset of its next window; null when this one reaches the end' },
  },
};

export const { operations, schemas } = planOpenApiPart(taskBoardRoutes, {
  PlanTaskBoard: {
    type: 'object',
    properties: {
      group_by: { enum: [...GROUP_BY] }, sub_group_by: { enum: [...SUB_GROUP_BY] }, total: { type: 'integer', description: 'the tasks the filters keep' },
      tasks_per_group: { type: 'integer' }, offset: { type: 'integer' },
      groups: {
        type: 'array',
        description: 'the columns, in board order; with sub_group_by, each column\'s cells are its lanes',
        items: { oneOf: [cell, { type: 'object', properties: { key: { type: 'string' }, name: { type: 'string' }, count: { type: 'integer' }, lanes: { type: 'array', items: cell } } }] },
      },
    },
  },
});
