import type { Operation } from '../../http/openapi/types.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { page } from '../../http/openapi/components.ts';
import { createSubscriptionSchema, deleteSubscriptionSchema, sampleSchema } from './schema.ts';

const tag = 'Webhooks';
const description =
  'Deliveries POST `{event, event_timestamp, hook: {id, name}, body}` with Standard Webhooks headers (`webhook-id`, stable across retries, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`) and `X-BEARER` when a bearer is set. The signing key is the secret as the Standard Webhooks libraries read it (`whsec_<base64>`: the base64 key, as generated when no `secret` is given); any other secret signs with its UTF-8 bytes. A delivery that cannot be made on this side (a secret the server key cannot open) fails at once with the reason in /v1/deliveries/. Retries: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h with jitter; only 2xx counts; redirects are not followed; 410 disables the subscription. Delivery is at least once: a delivery may arrive again with the same `webhook-id` (a lost answer, a server stopped between sending and recording), with one server process as with several; deduplicate by `webhook-id`. A subscription receives the events that happen after it was created.';
export const operations: Operation[] = [
  { method: 'get', path: '/v1/webhook-subscription/', tag, scope: 'reads', summary: 'List the organization’s webhook subscriptions (admins)', responses: { 200: page('WebhookSubscription') } },
  { method: 'post', path: '/v1/webhook-subscription/', tag, scope: 'writes', summary: 'Subscribe an HTTPS endpoint to organization events (admins)', description, body: createSubscriptionSchema, responses: { 201: 'WebhookSubscription', 400: 'FieldErrors' } },
  { method: 'delete', path: '/v1/webhook-subscription/', tag, scope: 'writes', summary: 'Delete a subscription named in the JSON body `{hook_id}` (admins)', body: deleteSubscriptionSchema, responses: { 200: { type: 'object', properties: { detail: { type: 'string' }, hook_id: { type: 'string', format: 'uuid' } } }, 404: 'Error' } },
  { method: 'post', path: '/v1/webhook-subscription/sample/', tag, scope: 'writes', summary: 'Send a sample event to the subscriptions of that event, or to `hook_id`', body: sampleSchema, responses: { 202: { type: 'object', properties: { detail: { type: 'string' }, event: { type: 'string' }, queued: { type: 'integer' }, deliveries: { type: 'array', items: { type: 'string', format: 'uuid' } } } } } },
];

const str = { type: 'string' };
export const schemas: Record<string, JsonSchema> = {
  WebhookSubscription: {
    type: 'object',
    properties: {
      hook_id: { type: 'string', format: 'uuid' }, id: { type: 'string', format: 'uuid' }, uuid: { type: 'string', format: 'uuid' },
      hook_url: { type: 'string', format: 'uri' }, name: str, subscriptions: { type: 'array', items: str },
      subscribed_objects: { type: 'array', items: str }, has_bearer: { type: 'boolean' }, active: { type: 'boolean' },
      disabled_at: { type: ['string', 'null'], format: 'date-time' }, disabled_reason: { type: ['string', 'null'] },
      created_at: { type: 'string', format: 'date-time' },
      signing_secret: { type: 'string', description: 'Generated `whsec_…` signing secret: only in the create answer, when no `secret` was given.' },
    },
  },
};
