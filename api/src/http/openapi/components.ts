import type { JsonSchema } from './yup-to-json-schema.ts';

/** Building blocks of the features' schemas. */
export const str = { type: 'string' };
export const nullableStr = { type: ['string', 'null'] };
export const dateTime = { type: 'string', format: 'date-time' };
export const uuid = { type: 'string', format: 'uuid' };

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

/** The error bodies every operation may answer; features add their own schemas in their openapi.ts. */
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
};
