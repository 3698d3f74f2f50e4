import type { Operation } from '../../http/openapi/types.ts';
import { page } from '../../http/openapi/components.ts';
import { createKeySchema, updateKeySchema } from './schema.ts';

const tag = 'API keys';
export const apiKeyOperations: Operation[] = [
  { method: 'get', path: '/v1/api-keys/', tag, scope: 'reads', summary: 'List API keys (admins: every key of the organization; others: their own)', responses: { 200: page('ApiKey') } },
  { method: 'post', path: '/v1/api-keys/', tag, scope: 'writes', summary: 'Create a key; the 201 answer carries the secret once', body: createKeySchema, responses: { 201: 'ApiKey' } },
  { method: 'get', path: '/v1/api-keys/:uuid/', tag, scope: 'reads', summary: 'One API key (suffix only)', responses: { 200: 'ApiKey' } },
  { method: 'patch', path: '/v1/api-keys/:uuid/', tag, scope: 'writes', summary: 'Rename, rescope, or regenerate (the 200 answer then carries the new secret)', body: updateKeySchema, responses: { 200: 'ApiKey' } },
  { method: 'delete', path: '/v1/api-keys/:uuid/', tag, scope: 'writes', summary: 'Revoke a key at once', responses: { 204: null } },
];
