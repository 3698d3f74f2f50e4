import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { projectRoutes } from './routes.ts';

const { str, uuid, nullableUuid, archived, times, visibility } = fields;

export const { operations, schemas } = planOpenApiPart(projectRoutes, {
  PlanProject: {
    type: 'object',
    properties: {
      uuid, id: uuid, name: str, description: str, goal: nullableUuid, visibility, start_date: { type: ['string', 'null'], format: 'date' }, target_date: { type: ['string', 'null'], format: 'date' },
      health: { enum: ['not_set', 'on_track', 'at_risk', 'off_track', null] }, created_by: nullableUuid,
      position: { type: ['string', 'null'], description: 'its place in the organization\'s order of projects (compare as plain strings)' },
      board_count: { type: 'integer', description: 'its live boards you see (in the list and the read of one project)' }, ...archived, ...times,
    },
  },
});
