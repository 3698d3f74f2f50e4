import type { Operation } from '../../http/openapi/types.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { dateTime, page, str, uuid } from '../../http/openapi/components.ts';
import { createKeySchema, updateKeySchema } from './schema.ts';

const tag = 'API keys';
export const operations: Operation[] = [
  { method: 'get', path: '/v1/api-keys/', tag, scope: 'reads', summary: 'List API keys (admins: every key of the organization; others: their own)', responses: { 200: page('ApiKey') } },
  { method: 'post', path: '/v1/api-keys/', tag, scope: 'writes', summary: 'Create a key; the 201 answer carries the secret once',
    description: 'Takes a personal key without explicit scopes or a CLI token: an agent key, an organization key or a key with scopes answers 403 `insufficient_scope` (a key never mints one that holds more than it does). `expires_at`, when given, must be in the future (400 naming the field).',
    body: createKeySchema, responses: { 201: 'ApiKey' } },
  { method: 'get', path: '/v1/api-keys/:uuid/', tag, scope: 'reads', summary: 'One API key (suffix only)', responses: { 200: 'ApiKey' } },
  { method: 'patch', path: '/v1/api-keys/:uuid/', tag, scope: 'writes', summary: 'Rename, rescope, or regenerate (the 200 answer then carries the new secret)',
    description: 'A key with explicit scopes may give a key only scopes it holds itself, and regenerate only a key whose scopes it holds (no scopes holds every scope); otherwise 403 `insufficient_scope`.',
    body: updateKeySchema, responses: { 200: 'ApiKey' } },
  { method: 'delete', path: '/v1/api-keys/:uuid/', tag, scope: 'writes', summary: 'Revoke a key at once', responses: { 204: null } },
];

export const schemas: Record<string, JsonSchema> = {
  ApiKey: {
    type: 'object',
    properties: {
      uuid, id: uuid, name: str, kind: { enum: ['personal', 'agent', 'organization'] },
      owner: { type: 'object', properties: { uuid, full_name: str } },
      created_by: { type: ['object', 'null'], properties: { uuid, full_name: str } },
      key_suffix: str, masked_key: str, is_agent_key: { type: 'boolean' },
      scopes: { type: 'array', items: { enum: ['tasks:read', 'tasks:write', 'tasks:admin'] } },
      expires_at: { type: ['string', 'null'], format: 'date-time' }, created_at: dateTime,
      last_used_at: { type: ['string', 'null'], format: 'date-time' },
      key: { type: 'string', description: 'The full secret: only in the create (201) and regenerate (200) answers.' },
    },
  },
};
