import { Webhook } from 'standardwebhooks';
import { createHmac, randomBytes } from 'node:crypto';
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

/**
 * The standard's signature, `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed as `webhookSigner` reads the
 * secret. The HMAC is Node's (OpenSSL): the library computes it in JavaScript, about 30 KB of garbage per
 * delivery. `signing.test.ts` checks every byte against the library's own `sign()`.
 */
export function standardSignature(secret: string, webhookId: string, seconds: number, body: string): string {
  const key = (webhookSigner(secret) as unknown as { key: Uint8Array }).key;
  return `v1,${createHmac('sha256', key).update(`${webhookId}.${seconds}.${body}`, 'utf8').digest('base64')}`;
}

export function standardWebhookHeaders(secret: string, webhookId: string, now: Date, body: string): Record<string, string> {
  const seconds = Math.floor(now.getTime() / 1000);
  let signature: string;
  try {
    signature = standardSignature(secret, webhookId, seconds, body);
  } catch (err) {
    throw new LocalDeliveryError(`cannot sign the delivery: ${(err as Error).message}`, { cause: err });
  }
  return { 'webhook-id': webhookId, 'webhook-timestamp': String(seconds), 'webhook-signature': signature };
}
