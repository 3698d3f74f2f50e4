import type { Operation } from '../../http/openapi/types.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { page } from '../../http/openapi/components.ts';
import { CHANNELS, DELIVERY_STATUSES } from '../../db/tables.ts';

const tag = 'Deliveries';
export const operations: Operation[] = [
  {
    method: 'get', path: '/v1/deliveries/', tag, scope: 'reads', summary: 'The organization’s outbound deliveries, newest first (admins)',
    query: [
      { name: 'status', description: 'pending, delivered, failed or cancelled', schema: { enum: [...DELIVERY_STATUSES] } },
      { name: 'channel', description: 'email, webhook, agent_webhook or chat', schema: { enum: [...CHANNELS] } },
    ],
    responses: { 200: page('Delivery'), 400: 'Error' },
  },
  { method: 'get', path: '/v1/deliveries/:uuid/', tag, scope: 'reads', summary: 'One delivery with every attempt (admins)', responses: { 200: 'Delivery', 404: 'Error' } },
  { method: 'post', path: '/v1/deliveries/:uuid/redeliver/', tag, scope: 'writes', summary: 'Send a delivery again from the start of the retry schedule (admins)', responses: { 200: 'Delivery', 404: 'Error' } },
];

const str = { type: 'string' };
const nullableStr = { type: ['string', 'null'] };
export const schemas: Record<string, JsonSchema> = {
  Delivery: {
    type: 'object',
    properties: {
      uuid: str, id: str, channel: { enum: [...CHANNELS] }, kind: str, destination: str, status: { enum: [...DELIVERY_STATUSES] },
      held: { type: 'boolean', description: 'An e-mail kept in the outbox because SMTP_URL is not set.' },
      attempts: { type: 'integer' }, next_attempt_at: nullableStr, last_status_code: { type: ['integer', 'null'] }, last_error: nullableStr,
      webhook_id: nullableStr, payload: {}, created_at: str, updated_at: str, delivered_at: nullableStr,
      attempt_log: {
        type: 'array',
        items: { type: 'object', properties: { attempt: { type: 'integer' }, outcome: str, status_code: { type: ['integer', 'null'] }, error: nullableStr, duration_ms: { type: 'integer' }, started_at: str } },
      },
    },
  },
};
