import type { Operation } from '../../http/openapi/types.ts';

export const meOperations: Operation[] = [
  { method: 'get', path: '/v1/me/', tag: 'Current user', scope: 'reads', summary: 'The user the credential acts as', responses: { 200: 'Me' } },
];
