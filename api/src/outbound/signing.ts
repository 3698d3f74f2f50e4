import { Webhook } from 'standardwebhooks';
import { randomBytes } from 'node:crypto';

/**
 * Standard Webhooks (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp` and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. A `whsec_<base64>` secret is the
 * base64 key (the standard's own format, what Rollcall generates); any other secret is used as UTF-8 bytes.
 */
export function webhookSigner(secret: string): Webhook {
  return secret.startsWith('whsec_') ? new Webhook(secret) : new Webhook(new Uint8Array(Buffer.from(secret, 'utf8')), { format: 'raw' });
}

export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function standardWebhookHeaders(secret: string, webhookId: string, now: Date, body: string): Record<string, string> {
  const timestamp = new Date(Math.floor(now.getTime() / 1000) * 1000);
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': webhookSigner(secret).sign(webhookId, timestamp, body),
  };
}
