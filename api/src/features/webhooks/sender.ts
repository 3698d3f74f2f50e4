import type { Db } from '../../db/connection.ts';
import type { SecretBox } from '../deliveries/secret-box.ts';
import type { OutboundHttp } from '../deliveries/outbound-http.ts';
import { postJson } from '../deliveries/http-sender.ts';
import { standardWebhookHeaders } from '../deliveries/signing.ts';
import type { DeliveryRow, SendResult } from '../deliveries/types.ts';
import type { SubscriptionRow } from './service.ts';

/** Organization webhooks: Standard Webhooks headers with the subscription's secret, plus X-BEARER when set. */
export function organizationWebhookSender(db: Db, box: SecretBox, http: OutboundHttp) {
  return async function sendOrganizationWebhook(row: DeliveryRow, now: Date): Promise<SendResult> {
    const sub: SubscriptionRow | undefined = await db('webhook_subscriptions').where({ uuid: row.ref_uuid }).first();
    if (!sub || sub.disabled_at) return { outcome: 'failed', error: sub ? 'subscription disabled' : 'subscription deleted', durationMs: 0 };
    const headers = standardWebhookHeaders(box.decrypt(sub.secret_encrypted), row.webhook_id ?? `msg_${row.uuid}`, now, row.payload);
    if (sub.bearer_encrypted) headers['X-BEARER'] = box.decrypt(sub.bearer_encrypted);
    return postJson(http, row.destination, headers, row.payload, now);
  };
}

/** Agent webhooks (spec "Webhook secrets"): X-Webhook-Secret plus Standard Webhooks signing with the same secret. */
export function agentWebhookSender(box: SecretBox, http: OutboundHttp) {
  return async function sendAgentWebhook(row: DeliveryRow, now: Date): Promise<SendResult> {
    if (!row.secret_encrypted) return { outcome: 'failed', error: 'agent webhook delivery without a secret', durationMs: 0 };
    const secret = box.decrypt(row.secret_encrypted);
    const headers = { ...standardWebhookHeaders(secret, row.webhook_id ?? `msg_${row.uuid}`, now, row.payload), 'X-Webhook-Secret': secret };
    return postJson(http, row.destination, headers, row.payload, now);
  };
}
