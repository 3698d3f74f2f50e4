import type { Operation } from '../../http/openapi/types.ts';
import { page } from '../../http/openapi/components.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { updateUserSchema } from './schema.ts';

const str = { type: 'string' };
const nullableStr = { type: ['string', 'null'] };
const uuid = { type: 'string', format: 'uuid' };

export const schemas: Record<string, JsonSchema> = {
  User: {
    type: 'object',
    properties: {
      uuid, id: uuid,
      email: { type: 'string', format: 'email', description: 'Only with include_email=true, for admins or the user themselves.' },
      first_name: str, last_name: str, full_name: str, role: { enum: ['admin', 'manager', 'member', 'guest'] },
      is_active: { type: 'boolean' },
      status: { enum: ['active', 'invited', 'deactivated'], description: 'invited: not active yet, with an invitation nobody accepted (POST /v1/invite-user/); deactivated: not active, by an admin.' },
      invitation: {
        type: ['object', 'null'],
        description: 'The pending invitation of an invited person (admins and managers see them); null for everyone else.',
        properties: {
          uuid: { ...uuid, description: 'DELETE /v1/invitations/{uuid}/ revokes it.' }, status: { enum: ['pending', 'expired'] },
          sent_at: { type: 'string', format: 'date-time', description: 'The last e-mail.' }, expires_at: { type: 'string', format: 'date-time' },
          sent_count: { type: 'integer' }, invited_by_uuid: { type: ['string', 'null'] },
        },
      },
      timezone: nullableStr, occupation: nullableStr, image: nullableStr,
      time_off: { type: 'array', description: 'Only in one user\'s answer (GET and PATCH /v1/users/{uuid}/): periods away, local days inclusive.', items: { type: 'object', properties: { start: { type: 'string', format: 'date' }, end: { type: 'string', format: 'date' } } } },
      created_at: { type: 'string', format: 'date-time' },
    },
  },
  UserRef: { type: 'object', properties: { uuid, full_name: str } },
};

const q = (name: string, description: string) => ({ name, description });
const tag = 'Users';
export const operations: Operation[] = [
  {
    method: 'get', path: '/v1/users/', tag, scope: 'reads',
    summary: 'List users (admins and managers: everyone; members: the active directory; guests: themselves)',
    query: [q('search', 'Name or e-mail, 2–256 characters'), q('role', 'admin, manager, member or guest'), q('is_active', 'true or false'), q('status', 'active, invited or deactivated'), q('include_email', 'true shows e-mail (admins; or your own)'), q('since', 'Created on or after (YYYY-MM-DD); alias start_date'), q('until', 'Created on or before (YYYY-MM-DD); alias end_date'), q('ordering', 'first_name (default), last_name, email, created_at, role; - for descending')],
    responses: { 200: page('User') },
  },
  { method: 'get', path: '/v1/users/:uuid/', tag, scope: 'reads', summary: 'One user', query: [q('include_email', 'true shows e-mail (admins; or your own)')], responses: { 200: 'User' } },
  { method: 'patch', path: '/v1/users/:uuid/', tag, scope: 'writes', summary: 'Update a profile (self), or role and is_active (admins); deactivation stops the user\'s credentials', body: updateUserSchema, responses: { 200: 'User' } },
];
