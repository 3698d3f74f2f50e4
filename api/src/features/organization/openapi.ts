import type { Operation } from '../../http/openapi/types.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { dateTime, nullableStr, str, uuid } from '../../http/openapi/components.ts';
import { updateOrganizationSchema } from './schema.ts';

const tag = 'Organization';
export const operations: Operation[] = [
  { method: 'get', path: '/v1/organization/', tag, scope: 'reads', summary: 'The caller’s organization', responses: { 200: 'Organization' } },
  { method: 'patch', path: '/v1/organization/', tag, scope: 'writes', summary: 'Update name, time zone, image or the chat platform connection (admins; platform secrets are write-only)', body: updateOrganizationSchema, responses: { 200: 'Organization' } },
];

export const schemas: Record<string, JsonSchema> = {
  Organization: {
    type: 'object',
    properties: {
      uuid, id: uuid, name: str, timezone: str, plan: { enum: ['free', 'basic', 'pro', 'enterprise'] },
      plan_beta_enabled: { type: 'boolean' }, platform: nullableStr, image: nullableStr, created_at: dateTime,
    },
  },
};
