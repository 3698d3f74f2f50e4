import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { memberRoutes } from './routes.ts';

const { uuid, dateTime, person } = fields;

export const { operations, schemas } = planOpenApiPart(memberRoutes, {
  PlanMember: {
    type: 'object',
    properties: {
      uuid, id: uuid, user: person, role: { enum: ['manager', 'member'] }, created_at: dateTime,
      subject_type: { const: 'user' }, user_uuid: uuid, name: { type: 'string' }, team_uuid: { type: 'null' }, team_name: { type: 'null' },
    },
    description: 'subject_type, user_uuid, name, team_uuid and team_name: the grant row as the DailyBot client reads it',
  },
  PlanMentionable: { type: 'object', properties: { uuid, id: uuid, full_name: { type: 'string' }, name: { type: 'string' }, kind: { const: 'user' } } },
});
