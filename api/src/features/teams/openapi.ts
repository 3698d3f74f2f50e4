import type { Operation } from '../../http/openapi/types.ts';
import { page, ref } from '../../http/openapi/components.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { addMembersSchema, createTeamSchema, updateTeamSchema } from './schema.ts';

const uuid = { type: 'string', format: 'uuid' };
export const schemas: Record<string, JsonSchema> = {
  Team: {
    type: 'object',
    properties: {
      uuid, id: uuid, name: { type: 'string' }, active: { type: 'boolean' }, is_default: { type: 'boolean' },
      members_count: { type: 'integer' }, created_at: { type: 'string', format: 'date-time' },
    },
  },
  TeamMember: { type: 'object', properties: { uuid, full_name: { type: 'string' }, email: { type: 'string' } } },
};

const tag = 'Teams';
export const operations: Operation[] = [
  { method: 'get', path: '/v1/teams/', tag, scope: 'reads', summary: 'List teams (admins and managers: all; others: their own)', query: [{ name: 'search', description: 'Team name, 2–256 characters' }, { name: 'active', description: 'true or false' }], responses: { 200: page('Team') } },
  { method: 'post', path: '/v1/teams/', tag, scope: 'writes', summary: 'Create a team (admins and managers)', body: createTeamSchema, responses: { 201: 'Team' } },
  { method: 'get', path: '/v1/teams/:uuid/', tag, scope: 'reads', summary: 'One team', responses: { 200: 'Team' } },
  { method: 'patch', path: '/v1/teams/:uuid/', tag, scope: 'writes', summary: 'Rename, (de)activate or make default (admins and managers)', body: updateTeamSchema, responses: { 200: 'Team' } },
  { method: 'delete', path: '/v1/teams/:uuid/', tag, scope: 'writes', summary: 'Delete a team (admins and managers)', responses: { 204: null } },
  { method: 'get', path: '/v1/teams/:uuid/members/', tag, scope: 'reads', summary: 'The team\'s members as a bare array', responses: { 200: { type: 'array', items: ref('TeamMember') } } },
  { method: 'post', path: '/v1/teams/:uuid/member/', tag, scope: 'writes', summary: 'Add members (admins and managers)', body: addMembersSchema, responses: { 200: 'Team' } },
  { method: 'delete', path: '/v1/teams/:uuid/member/:user_uuid/', tag, scope: 'writes', summary: 'Remove a member (admins and managers)', responses: { 204: null } },
];
