import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { VIEW_VISIBILITIES } from '../../../db/tables.ts';
import { viewRoutes } from './routes.ts';

const { str, uuid, nullableUuid, times } = fields;

export const { operations, schemas } = planOpenApiPart(viewRoutes, {
  PlanView: {
    type: 'object',
    properties: {
      uuid, id: uuid, board: nullableUuid, project: nullableUuid,
      scope: { enum: ['board', 'project', 'workspace'], description: 'what the view is a view of' }, kind: { enum: ['board', 'project', 'workspace'], description: 'scope again (the DailyBot client\'s name)' },
      name: str, visibility: { enum: [...VIEW_VISIBILITIES] },
      filters: { type: 'object', description: 'The task list filters the view stands for' }, sort: { type: 'array', items: str },
      view_mode: { enum: ['list', 'board', 'table', 'timeline', 'calendar', null], description: 'kanban is taken as board' },
      group_by: { type: ['string', 'null'] }, sub_group_by: { type: ['string', 'null'], description: 'the swimlanes\' field, or none' },
      owner: nullableUuid, version: { type: 'integer' }, ...times,
    },
  },
});
