import type { Operation } from '../../http/openapi/types.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { str, uuid } from '../../http/openapi/components.ts';

export const operations: Operation[] = [
  { method: 'get', path: '/v1/me/', tag: 'Current user', scope: 'reads', summary: 'The user the credential acts as', responses: { 200: 'Me' } },
];

export const schemas: Record<string, JsonSchema> = {
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
