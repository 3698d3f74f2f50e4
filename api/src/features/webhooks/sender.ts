import type { Db } from '../../db/connection.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import type { OutboundHttp } from '../../outbound/outbound-http.ts';
import { postJson } from '../../outbound/http-sender.ts';
import { standardWebhookHeaders } from '../../outbound/signing.ts';
import type { SendResult } from '../../outbound/types.ts';
import type { DeliveryRow, SubscriptionRow } from '../../db/tables.ts';

/** Organization webhooks: Standard Webhooks headers with the subscription's secret, plus X-BEARER when set. */
export function organizationWebhookSender(db: Db, box: SecretBox, http: OutboundHttp) {
  // Subscriptions and their decrypted secrets, cached for a second: a busy endpoint is not re-read and
  // re-decrypted per delivery. Deleting or disabling a subscription cancels its pending rows anyway.
  const cache = new Map<string, { at: number; sub: SubscriptionRow | null; secret: string | null; bearer: string | null }>();
  async function load(uuid: string) {
    const hit = cache.get(uuid);
    if (hit && performance.now() - hit.at < 1000) return hit;
    const sub: SubscriptionRow | null = (await db('webhook_subscriptions').where({ uuid }).first()) ?? null;
    const entry = {
      at: performance.now(),
      sub,
      secret: sub ? box.decrypt(sub.secret_encrypted, 'the subscription\'s signing secret') : null,
      bearer: sub?.bearer_encrypted ? box.decrypt(sub.bearer_encrypted, 'the subscription\'s bearer') : null,
    };
    if (cache.size > 10_000) cache.clear();
    cache.set(uuid, entry);
    return entry;
  }
  return async function sendOrganizationWebhook(row: DeliveryRow, now: Date): Promise<SendResult> {
    const { sub, secret, bearer } = await load(row.ref_uuid ?? '');
    if (!sub || sub.disabled_at || !secret) return { outcome: 'failed', error: sub ? 'subscription disabled' : 'subscription deleted', durationMs: 0 };
    const headers = standardWebhookHeaders(secret, row.webhook_id ?? `msg_${row.uuid}`, now, row.payload);
    if (bearer) headers['X-BEARER'] = bearer;
    return postJson(http, row.destination, headers, row.payload, now);
  };
}
