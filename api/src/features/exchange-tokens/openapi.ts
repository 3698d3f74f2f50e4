import type { Operation } from '../../http/openapi/types.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { dateTime, page, str, uuid } from '../../http/openapi/components.ts';
import { exchangeTokenSchema } from './schema.ts';

const tag = 'Exchange tokens';
export const tags = [
  {
    name: tag,
    description: [
      'An admin acts for a member (spec "Exchange token"). Off until an operator runs `rollcall admin org exchange ORG on` (403 `exchange_tokens_disabled`).',
      '1. An admin credential asks `POST /v1/exchange-token/` `{user_uuid}` → `{token, expires_in: 300}`.',
      '2. The admin\'s requests that also send `X-Exchange-Token: <token>` act as that member, on `POST /v1/kudos/`, `POST /v1/kudos/{uuid}/boost/` and',
      '   `POST|PUT|DELETE /v1/checkins/{uuid}/responses/` (and `/v1/followups/…`); elsewhere 403 `exchange_token_not_accepted`. An expired token answers 401',
      '   `credential_expired`, an unknown one 401 `invalid_credentials`, a member\'s credential presenting one 403 `org_admin_required`.',
      'Only the admin who asked for a token presents it, with a personal key without scopes or a CLI token: another admin gets 401 `invalid_credentials`;',
      'an agent key, an organization key or a key with explicit scopes can neither ask for nor present one (403 `insufficient_scope`).',
      'A token is not single-use: its admin may present it any number of times within its 300 seconds.',
      'Each token issued and each request made with one is audited with the member, the admin and the credential.',
    ].join('\n'),
  },
];

const personRef: JsonSchema = { type: ['object', 'null'], properties: { uuid, full_name: { type: ['string', 'null'] } } };

export const schemas: Record<string, JsonSchema> = {
  ExchangeToken: {
    type: 'object',
    properties: {
      token: { type: 'string', description: '`rxt_` and 48 letters and digits; shown once.' },
      expires_in: { const: 300 },
      expires_at: dateTime,
      user: { type: 'object', properties: { uuid, full_name: str } },
    },
  },
  AuditEvent: {
    type: 'object',
    properties: {
      uuid, id: uuid, action: { enum: ['exchange_token.issued', 'exchange_token.used'] },
      user: { ...personRef, description: 'The member acted as.' }, admin: { ...personRef, description: 'The admin who issued the token.' },
      credential_uuid: uuid, exchange_token_uuid: uuid, method: { type: ['string', 'null'] }, path: { type: ['string', 'null'] },
      status: { type: ['integer', 'null'], description: 'The answer\'s status; null while the request runs.' }, created_at: dateTime,
    },
  },
  AuditEventPage: page('AuditEvent'),
};

export const operations: Operation[] = [
  {
    method: 'post', path: '/v1/exchange-token/', tag, scope: 'authentication', body: exchangeTokenSchema,
    summary: 'A 300-second token to act as a member (admins; off until an operator turns it on)', responses: { 201: 'ExchangeToken' },
  },
  {
    method: 'get', path: '/v1/exchange-token/audit/', tag, scope: 'reads', summary: 'What was done on members\' behalf, newest first (admins)',
    query: [
      { name: 'action', description: 'exchange_token.issued or exchange_token.used' },
      { name: 'user', description: 'a person\'s uuid: events that acted as them or that they issued' },
    ],
    responses: { 200: 'AuditEventPage' },
  },
];
