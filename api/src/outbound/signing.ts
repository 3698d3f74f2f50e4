import { Webhook } from 'standardwebhooks';
import { randomBytes } from 'node:crypto';
import { LocalDeliveryError } from './failures.ts';

/**
 * Standard Webhooks (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp` and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. A `whsec_<base64>` secret is read as the
 * standard's libraries read it (the key in base64; what Rollcall generates), so a receiver verifies with the same
 * string. Any other secret, a `whsec_` one those libraries cannot read included, signs with its UTF-8 bytes
 * (`new Webhook(bytes, {format: 'raw'})` verifies): every secret the API takes can sign.
 */
export function webhookSigner(secret: string): Webhook {
  if (secret.startsWith('whsec_')) {
    try {
      return new Webhook(secret);
    } catch {
      // Not base64 after the prefix (or nothing after it): the secret's own bytes, below.
    }
  }
  return new Webhook(new Uint8Array(Buffer.from(secret, 'utf8')), { format: 'raw' });
}

export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function standardWebhookHeaders(secret: string, webhookId: string, now: Date, body: string): Record<string, string> {
  const timestamp = new Date(Math.floor(now.getTime() / 1000) * 1000);
  let signature: string;
  try {
    signature = webhookSigner(secret).sign(webhookId, timestamp, body);
  } catch (err) {
    throw new LocalDeliveryError(`cannot sign the delivery: ${(err as Error).message}`, { cause: err });
  }
  return { 'webhook-id': webhookId, 'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)), 'webhook-signature': signature };
}
