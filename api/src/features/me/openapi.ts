import type { Operation } from '../../http/openapi/types.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { nullableStr, str, uuid } from '../../http/openapi/components.ts';
import { linkChatAccountSchema, updateMeSchema } from './schema.ts';

export const operations: Operation[] = [
  { method: 'get', path: '/v1/me/', tag: 'Current user', scope: 'reads', summary: 'The user the credential acts as, with their own settings', responses: { 200: 'Me' } },
  {
    method: 'patch', path: '/v1/me/', tag: 'Current user', scope: 'writes', summary: 'Change your own settings: name, time zone, language, holiday calendar, notifications, time off',
    description:
      'A person\'s credential (agent and organization keys: 403 `insufficient_scope`). Absent fields stay as they are. `timezone`: IANA (null: the organization\'s). `language`: `en`, `es` or `pt` (null: not chosen): prompts, reminders, reports e-mailed to you and the answer page are written in it. `holiday_calendar`: a country code, optionally with a region (`ES`, `ES-MD`; null: each check-in\'s own): you are not asked on its public holidays, and it wins over the check-in\'s. `notifications`: `reminders` (check-in reminders) and `report_emails` (team reports by e-mail), each true unless turned off. `time_off` replaces your periods away (local days, inclusive). Answers GET /v1/me/ with `time_off`.',
    body: updateMeSchema,
    responses: { 200: 'MeWithTimeOff' },
  },
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

const me: JsonSchema = {
  type: 'object',
  properties: {
    id: uuid, uuid, email: { type: 'string', format: 'email' }, first_name: str, last_name: str, full_name: str,
    role: { enum: ['admin', 'manager', 'member', 'guest'] }, timezone: str, organization_name: str, organization_uuid: uuid,
    user: { type: 'object', properties: { uuid, full_name: str, email: str } },
    organization: { type: 'object', properties: { uuid, name: str } },
    language: { enum: ['en', 'es', 'pt', null], description: 'The language chosen with PATCH /v1/me/; null: not chosen (messages in English).' },
    holiday_calendar: { ...nullableStr, description: 'Public-holiday calendar (`ES`, `ES-MD`); null: each check-in\'s.' },
    notifications: { type: 'object', required: ['reminders', 'report_emails'], properties: { reminders: { type: 'boolean' }, report_emails: { type: 'boolean' } } },
  },
};

export const schemas: Record<string, JsonSchema> = {
  ChatAccount: {
    type: 'object',
    properties: { platform: { enum: ['discord'] }, external_id: str, name: { type: ['string', 'null'] }, linked_at: { type: 'string', format: 'date-time' } },
  },
  Me: me,
  MeWithTimeOff: {
    ...me,
    properties: {
      ...(me.properties as Record<string, JsonSchema>),
      time_off: { type: 'array', items: { type: 'object', properties: { start: { type: 'string', format: 'date' }, end: { type: 'string', format: 'date' } } } },
    },
  },
};
