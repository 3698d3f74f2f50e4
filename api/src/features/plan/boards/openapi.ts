import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { boardRoutes } from './routes.ts';

const { str, uuid, nullableUuid, archived, times, visibility } = fields;

export const { operations, schemas } = planOpenApiPart(boardRoutes, {
  PlanBoard: {
    type: 'object',
    properties: {
      uuid, id: uuid, key: str, name: str, description: str, visibility, project: nullableUuid, created_by: nullableUuid,
      position: { type: ['string', 'null'], description: 'its place in the organization\'s order of boards (compare as plain strings)' }, ...archived, ...times,
    },
  },
  PlanBoardMovePreview: {
    type: 'object',
    properties: {
      board: uuid, from_project_uuid: nullableUuid, to_project_uuid: nullableUuid, moves: { type: 'boolean', description: 'whether the project would change' },
      tasks_count: { type: 'integer' }, tasks_with_foreign_milestone: { type: 'integer', description: 'tasks whose milestone (of another project) a move clears' },
      goals_affected: { type: 'integer', description: 'goals of the two projects, whose progress a move changes' },
    },
  },
});
