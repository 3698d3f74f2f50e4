import type { Operation } from '../../http/openapi/types.ts';
import { ref } from '../../http/openapi/components.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { acceptInvitationSchema, inviteUserSchema } from './schema.ts';

const uuid = { type: 'string', format: 'uuid' };
export const schemas: Record<string, JsonSchema> = {
  Invitation: {
    type: 'object',
    properties: {
      uuid, id: uuid, email: { type: 'string' }, role: { enum: ['admin', 'manager', 'member', 'guest'] },
      status: { enum: ['pending', 'accepted'] }, resent: { type: 'boolean' }, sent_count: { type: 'integer' },
      last_sent_at: { type: 'string', format: 'date-time' }, team_uuids: { type: 'array', items: uuid },
      invited_by_uuid: { type: ['string', 'null'] }, user: ref('User'), created_at: { type: 'string', format: 'date-time' },
    },
  },
};

export const operations: Operation[] = [
  {
    method: 'post', path: '/v1/invite-user/', tag: 'Users', scope: 'invitations',
    summary: 'Invite a user (admins and managers): creates them inactive and e-mails an invitation; the same call resends',
    description: '201 for a new invitation, 200 when resent to a pending address; 409 `user_already_exists` or `user_deactivated`.',
    body: inviteUserSchema,
    responses: { 200: 'Invitation', 201: 'Invitation' },
  },
  {
    method: 'post', path: '/v1/invitations/accept/', tag: 'Users', auth: false, scope: 'authentication',
    summary: 'Accept an invitation with the token from its e-mail: activates the user (no credential)',
    description: '404 for an unknown or replaced token; 400 `invitation_already_accepted`. Counted per client address.',
    body: acceptInvitationSchema,
    responses: { 200: { type: 'object', properties: { detail: { type: 'string' }, user: ref('User'), organization: { type: 'object', properties: { uuid, name: { type: 'string' } } } } } },
  },
];
