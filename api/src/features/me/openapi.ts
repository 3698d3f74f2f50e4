import type { Operation } from '../../http/openapi/types.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { str, uuid } from '../../http/openapi/components.ts';
import { linkChatAccountSchema } from './schema.ts';

export const operations: Operation[] = [
  { method: 'get', path: '/v1/me/', tag: 'Current user', scope: 'reads', summary: 'The user the credential acts as', responses: { 200: 'Me' } },
  {
    method: 'get', path: '/v1/me/chat-accounts/', tag: 'Current user', scope: 'reads', summary: 'The chat accounts the person linked (Discord)',
    responses: { 200: { type: 'object', properties: { results: { type: 'array', items: 'ChatAccount' } } }, 403: 'Error' },
  },
  {
    method: 'post', path: '/v1/me/chat-accounts/', tag: 'Current user', scope: 'writes', summary: 'Link the chat account that asked for this link (`/rollcall link` in Discord) to the person',
    description: 'The token is the last part of the link `/rollcall link` answered in Discord (`/app/link/<token>`): valid 15 minutes, once. The account is then the signed-in person\'s (a person has one account per platform; linking another replaces it), and their prompts reach it by direct message. A token unknown, used, expired or of another organization: 404.',
    body: linkChatAccountSchema,
    responses: { 201: 'ChatAccount', 400: 'Error', 403: 'Error', 404: 'Error' },
  },
];

export const schemas: Record<string, JsonSchema> = {
  ChatAccount: {
    type: 'object',
    properties: { platform: { enum: ['discord'] }, external_id: str, name: { type: ['string', 'null'] }, linked_at: { type: 'string', format: 'date-time' } },
  },
  Me: {
    type: 'object',
    properties: {
      id: uuid, uuid, email: { type: 'string', format: 'email' }, first_name: str, last_name: str, full_name: str,
      role: { enum: ['admin', 'manager', 'member', 'guest'] }, timezone: str, organization_name: str, organization_uuid: uuid,
      user: { type: 'object', properties: { uuid, full_name: str, email: str } },
      organization: { type: 'object', properties: { uuid, name: str } },
    },
  },
};
