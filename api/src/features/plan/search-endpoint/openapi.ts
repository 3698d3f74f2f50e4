import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { searchRoutes } from './routes.ts';

const { str, nullableStr, uuid, nullableUuid, dateTime } = fields;

export const { operations, schemas } = planOpenApiPart(searchRoutes, {
  PlanSearchResult: {
    type: 'object',
    properties: {
      type: { enum: ['task', 'board', 'project'] },
      uuid,
      id: uuid,
      key: { ...nullableStr, description: 'KEY-n of a task, key of a board, null for a project' },
      title: { ...str, description: 'title of a task, name of a board or project' },
      board: nullableUuid,
      project: nullableUuid,
      is_archived: { type: 'boolean' },
      updated_at: dateTime,
      object: { description: 'The task (PlanTask), board (PlanBoard) or project (PlanProject) as its own endpoint answers it' },
    },
  },
});
