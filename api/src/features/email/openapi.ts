import type { Operation } from '../../http/openapi/types.ts';
import { sendEmailSchema } from './schema.ts';

export const operations: Operation[] = [
  {
    method: 'post',
    path: '/v1/send-email/',
    tag: 'E-mail',
    scope: 'email',
    summary: 'Send an e-mail from the caller (replies go to the caller); queued in the outbox',
    description: 'Free-plan organizations: 20 per organization per UTC day, then 429 `free_plan_daily_limit_exceeded` with `Retry-After` to 00:00 UTC.',
    body: sendEmailSchema,
    responses: {
      201: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' }, uuid: { type: 'string', format: 'uuid' }, status: { type: 'string' },
          to: { type: 'array', items: { type: 'string' } }, subject: { type: 'string' },
          sent_count: { type: 'integer' }, total_recipients: { type: 'integer' },
        },
      },
      429: 'Error',
    },
  },
];
