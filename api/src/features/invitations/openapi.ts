import type { Operation } from '../../http/openapi/types.ts';
import { ref } from '../../http/openapi/components.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { acceptInvitationSchema, inviteUserSchema } from './schema.ts';

const uuid = { type: 'string', format: 'uuid' };
const dateTime = { type: 'string', format: 'date-time' };
export const schemas: Record<string, JsonSchema> = {
  Invitation: {
    type: 'object',
    properties: {
      uuid, id: uuid, email: { type: 'string' }, role: { enum: ['admin', 'manager', 'member', 'guest'] },
      status: { enum: ['pending', 'accepted'] }, resent: { type: 'boolean' }, sent_count: { type: 'integer' },
      last_sent_at: dateTime, expires_at: { ...dateTime, description: 'When the link of the e-mail just sent stops working: 7 days after it.' },
      team_uuids: { type: 'array', items: uuid },
      invited_by_uuid: { type: ['string', 'null'] }, user: ref('User'), created_at: dateTime,
    },
  },
  InvitationAccepted: {
    type: 'object',
    required: ['detail', 'user', 'organization'],
    properties: {
      detail: { type: 'string' },
      user: ref('User'),
      organization: { type: 'object', properties: { uuid, name: { type: 'string' } } },
      authenticated: { const: true, description: 'Only with session: true: the rollcall_session cookie is set.' },
      expires_at: { ...dateTime, description: 'Only with session: true: when the session ends (30 days).' },
    },
  },
};

const tags = 'Users';
export const operations: Operation[] = [
  {
    method: 'post', path: '/v1/invite-user/', tag: tags, scope: 'invitations',
    summary: 'Invite a user (admins and managers): creates them with status invited and e-mails a link to accept; the same call resends',
    description: [
      '201 for a new invitation, 200 when resent to a pending address (a new link: the older one stops, and its e-mail is not sent if it still waits in the outbox).',
      "The e-mail links to the web app's acceptance page, `/app/invitations/accept?token=…`, under PUBLIC_URL (or the address the request reached).",
      'The link works once, for 7 days. The person appears in GET /v1/users/ with `status: invited` and an `invitation` until they accept;',
      'signing in with the e-mailed code (POST /v1/cli/auth/request-code/, then verify-code or session) accepts a waiting invitation too.',
      '409 `user_already_exists` (an active member) or `user_deactivated`.',
    ].join('\n'),
    body: inviteUserSchema,
    responses: { 200: 'Invitation', 201: 'Invitation' },
  },
  {
    method: 'post', path: '/v1/invitations/accept/', tag: tags, auth: false, scope: 'authentication',
    summary: "Accept an invitation with the token of its e-mail's link: the person becomes an active member; session: true also signs them in",
    description: [
      'No credential: the token is the proof. It works once, for 7 days from its e-mail. Counted per client address in the `authentication` budget.',
      '`session: true` (what the web app sends) also signs the person in: their 30-day session token is set as the `rollcall_session` cookie,',
      'exactly as POST /v1/cli/auth/session/ sets it, and the answer adds `authenticated` and `expires_at`. It must come from the app\'s own pages',
      '(its `Origin`): any other answers 403 `cross_origin_request`.',
      'Refusals: 404 `invitation_not_found` (unknown, replaced by a resend, or revoked), 400 `invitation_expired` (with `extra.expired_at`),',
      '400 `invitation_already_accepted`.',
    ].join('\n'),
    body: acceptInvitationSchema,
    responses: { 200: 'InvitationAccepted' },
    errors: { 404: '`invitation_not_found`: an unknown token, one a resend replaced, or a revoked invitation\'s.' },
  },
  {
    method: 'delete', path: '/v1/invitations/:uuid/', tag: tags, scope: 'writes',
    summary: 'Revoke an invitation nobody accepted (admins and managers; an admin\'s invitation, admins): its link stops and the invited person is removed',
    description: [
      "The invitation's uuid is the invite-user answer's `uuid`, and the `invitation.uuid` of the person in GET /v1/users/.",
      'The person it created goes, with their team and check-in places (they never signed in); their e-mail is not sent if it still waits in the outbox.',
      'The address can be invited again. 409 `invitation_already_accepted` once accepted: deactivate the person instead (PATCH /v1/users/{uuid}/).',
    ].join('\n'),
    responses: { 204: null },
  },
];
