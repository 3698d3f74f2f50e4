import type { Operation } from '../../http/openapi/types.ts';
import { updateOrganizationSchema } from './schema.ts';

const tag = 'Organization';
export const organizationOperations: Operation[] = [
  { method: 'get', path: '/v1/organization/', tag, scope: 'reads', summary: 'The caller’s organization', responses: { 200: 'Organization' } },
  { method: 'patch', path: '/v1/organization/', tag, scope: 'writes', summary: 'Update name, time zone, image or the chat platform connection (admins; platform secrets are write-only)', body: updateOrganizationSchema, responses: { 200: 'Organization' } },
];
