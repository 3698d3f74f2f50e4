import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newSigningSecret, standardWebhookHeaders, webhookSigner } from './signing.ts';

/** Secrets of every form the API takes: generated ones, `whsec_` ones that are not base64, and any other text. */
const secrets = fc.oneof(
  fc.constant(null).map(() => newSigningSecret()),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => `whsec_${Buffer.from(bytes).toString('base64')}`),
  fc.string({ minLength: 0, maxLength: 40 }).map((s) => `whsec_${s}`),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
);

describe('Standard Webhooks signatures', () => {
  it('are byte for byte what the standard\'s library signs, for any secret, id, time and body', () => {
    fc.assert(
      fc.property(secrets, fc.string({ minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.oneof(fc.string({ unit: 'binary', maxLength: 2000 }), fc.constant('lone \uD800 and \uDFFF halves')), (secret, id, ms, body) => {
        const headers = standardWebhookHeaders(secret, id, new Date(ms), body);
        const seconds = Math.floor(ms / 1000);
        expect(headers).toEqual({
          'webhook-id': id,
          'webhook-timestamp': String(seconds),
          'webhook-signature': webhookSigner(secret).sign(id, new Date(seconds * 1000), body),
        });
      }),
      { numRuns: 300 },
    );
  });

  it('verify with the string the API gave the subscriber', () => {
    const secret = newSigningSecret();
    const body = JSON.stringify({ event: 'kudos.posted', body: { content: 'Merci, ça marche \u{1F389}' } });
    const headers = standardWebhookHeaders(secret, 'msg_1', new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });
});
