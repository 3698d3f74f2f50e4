import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { memberRoutes } from './routes.ts';

const { uuid, dateTime, person } = fields;
// Always null (a member is a person), declared string-or-null as the DailyBot grant row is: a null-only property
// would vanish from the app's typed answers (openapi-fetch's Readable drops keys whose non-null type is never).
const teamField = { type: ['string', 'null'], description: 'always null: a member is a person, never a team' };

export const { operations, schemas } = planOpenApiPart(memberRoutes, {
  PlanMember: {
    type: 'object',
    properties: {
      uuid, id: uuid, user: person, role: { enum: ['manager', 'member'] }, created_at: dateTime,
      subject_type: { const: 'user' }, user_uuid: uuid, name: { type: 'string' }, team_uuid: teamField, team_name: teamField,
    },
    description: 'subject_type, user_uuid, name, team_uuid and team_name: the grant row as the DailyBot client reads it',
  },
  PlanMentionable: { type: 'object', properties: { uuid, id: uuid, full_name: { type: 'string' }, name: { type: 'string' }, kind: { const: 'user' } } },
});
