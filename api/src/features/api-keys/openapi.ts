import type { Operation } from '../../http/openapi/types.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { dateTime, page, str, uuid } from '../../http/openapi/components.ts';
import { SCOPES } from '../../auth/policy.ts';
import { createKeySchema, updateKeySchema } from './schema.ts';

const tag = 'API keys';

/** What `scopes` means, on the key record and on the create and update bodies. */
const SCOPES_DESCRIPTION =
  'What the key may call. Empty (the default): everything its owner\'s role allows. Otherwise only the areas its scopes name, ' +
  'each refused with 403 `insufficient_scope` and `extra.required_scope` when missing: `tasks:read`, `tasks:write`, `tasks:admin` the Plan ' +
  '(/v1/plan/; each covers the ones before it), `checkins` check-ins, their responses, templates, mood and the terminal\'s ' +
  '/v1/cli/status/ and /v1/cli/updates/, `kudos` kudos and company values, `agents` agent reports, health, messages, webhooks and claims, ' +
  '`email` /v1/send-email/ and /v1/agent-email/send/. Every key may call /v1/me/, its sign-in status, /v1/platform/status/, /mcp, ' +
  'its own keys (within these rules) and read the organization, people, teams and report channels; anything else (the organization\'s ' +
  'settings and people, teams\' changes, forms, workflows, chat messages, the assistant) takes a key without scopes (403 `insufficient_scope`).';
export const operations: Operation[] = [
  { method: 'get', path: '/v1/api-keys/', tag, scope: 'reads', summary: 'List API keys (admins: every key of the organization; others: their own)', responses: { 200: page('ApiKey') } },
  { method: 'post', path: '/v1/api-keys/', tag, scope: 'writes', summary: 'Create a key; the 201 answer carries the secret once',
    description: 'Takes a personal key without explicit scopes or a CLI token: an agent key, an organization key or a key with scopes answers 403 `insufficient_scope` (a key never mints one that holds more than it does). `expires_at`, when given, must be in the future (400 naming the field). `scopes`: ' + SCOPES_DESCRIPTION,
    body: createKeySchema, responses: { 201: 'ApiKey' } },
  { method: 'get', path: '/v1/api-keys/:uuid/', tag, scope: 'reads', summary: 'One API key (suffix only)', responses: { 200: 'ApiKey' } },
  { method: 'patch', path: '/v1/api-keys/:uuid/', tag, scope: 'writes', summary: 'Rename, rescope, or regenerate (the 200 answer then carries the new secret)',
    description: 'A key with explicit scopes may give a key only scopes it holds itself, and regenerate only a key whose scopes it holds (no scopes holds every scope); otherwise 403 `insufficient_scope`. `scopes`: ' + SCOPES_DESCRIPTION,
    body: updateKeySchema, responses: { 200: 'ApiKey' } },
  { method: 'delete', path: '/v1/api-keys/:uuid/', tag, scope: 'writes', summary: 'Revoke a key at once',
    description: 'A key with explicit scopes deletes only a key whose scopes it holds (itself, or a narrower one); otherwise 403 `insufficient_scope`.', responses: { 204: null } },
];

export const schemas: Record<string, JsonSchema> = {
  ApiKey: {
    type: 'object',
    properties: {
      uuid, id: uuid, name: str, kind: { enum: ['personal', 'agent', 'organization'] },
      owner: { type: 'object', properties: { uuid, full_name: str } },
      created_by: { type: ['object', 'null'], properties: { uuid, full_name: str } },
      key_suffix: str, masked_key: str, is_agent_key: { type: 'boolean' },
      scopes: {
        type: 'array', items: { enum: [...SCOPES] },
        description: SCOPES_DESCRIPTION,
      },
      expires_at: { type: ['string', 'null'], format: 'date-time' }, created_at: dateTime,
      last_used_at: { type: ['string', 'null'], format: 'date-time' },
      key: { type: 'string', description: 'The full secret: only in the create (201) and regenerate (200) answers.' },
    },
  },
};
