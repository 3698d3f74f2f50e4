import type { JsonSchema } from './yup-to-json-schema.ts';

const str = { type: 'string' };
const nullableStr = { type: ['string', 'null'] };
const dateTime = { type: 'string', format: 'date-time' };
const uuid = { type: 'string', format: 'uuid' };

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `{count, next, previous, results}` around `item` (CONTRACT §2). */
export const page = (item: string): JsonSchema => ({
  type: 'object',
  required: ['count', 'next', 'previous', 'results'],
  properties: {
    count: { type: 'integer' },
    next: { type: ['string', 'null'], format: 'uri' },
    previous: { type: ['string', 'null'], format: 'uri' },
    results: { type: 'array', items: ref(item) },
  },
});

/** Shared response schemas. Features add theirs in their own openapi.ts through `schemas`. */
export const baseSchemas: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    required: ['detail', 'code'],
    properties: { detail: str, code: str, extra: { type: 'object' } },
  },
  FieldErrors: {
    type: 'object',
    description: 'Request-body validation: field path → messages; no code key.',
    additionalProperties: { type: 'array', items: str },
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
  Organization: {
    type: 'object',
    properties: {
      uuid, id: uuid, name: str, timezone: str, plan: { enum: ['free', 'basic', 'pro', 'enterprise'] },
      plan_beta_enabled: { type: 'boolean' }, platform: nullableStr, image: nullableStr, created_at: dateTime,
    },
  },
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
