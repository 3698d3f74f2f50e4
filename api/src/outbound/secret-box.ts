import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { LocalDeliveryError } from './failures.ts';

/**
 * A sealed secret this box cannot open: sealed under another key (the database came without its key), or damaged.
 * Nothing retrying can fix it: a delivery fails at once with this message (a local failure), a request that must
 * use the secret now answers 503 (http/errors.ts). The message names which secret, never its value.
 */
export class UnreadableSecretError extends LocalDeliveryError {
  constructor(what = 'the stored secret', options?: { cause?: unknown }) {
    super(`cannot decrypt ${what}: the encryption key (ENCRYPTION_KEY or DATA_DIR/encryption.key) is not the one it was stored with, or the stored value is damaged`, options);
    this.name = 'UnreadableSecretError';
  }
}

/** The whole GCM tag (what `getAuthTag` gives when sealing); decryption takes nothing shorter. */
const AUTH_TAG_BYTES = 16;

/**
 * Secrets Rollcall must send back out (webhook signing secrets, bearers, chat bot tokens and incoming-webhook
 * URLs) are stored encrypted with AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>` in base64url. The key comes from
 * `ENCRYPTION_KEY`, or from `DATA_DIR/encryption.key` (encryption-key.ts: made on the first start, checked against
 * the database on every start).
 */
export class SecretBox {
  readonly #key: Buffer;
  readonly #macKeys = new Map<string, Buffer>();
  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.#key = key;
  }

  static newKey(): Buffer {
    return randomBytes(32);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  /**
   * Throws UnreadableSecretError when the value was sealed under another key or is not a sealed value; `what`
   * names the secret in its message ("the subscription's signing secret").
   */
  decrypt(sealed: string, what?: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new UnreadableSecretError(what);
    const authTag = Buffer.from(tag, 'base64url');
    // GCM checks only as many tag bytes as it is given: a cut-short tag would be far easier to forge.
    if (authTag.length !== AUTH_TAG_BYTES) throw new UnreadableSecretError(what);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'), { authTagLength: AUTH_TAG_BYTES });
      decipher.setAuthTag(authTag);
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch (err) {
      throw new UnreadableSecretError(what, { cause: err });
    }
  }

  /**
   * A keyed hash of `value` (HMAC-SHA256 under a key derived from this box's key for `purpose`), as hex. For
   * short secrets such as six-digit sign-in codes, which a plain hash would not protect: every code can be
   * hashed in a second, but not without the key.
   */
  mac(purpose: string, value: string): string {
    let key = this.#macKeys.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', this.#key, Buffer.alloc(0), `rollcall mac: ${purpose}`, 32));
      this.#macKeys.set(purpose, key);
    }
    return createHmac('sha256', key).update(value).digest('hex');
  }

  /** Never print the key, whatever logs the box. */
  toJSON(): string {
    return '[SecretBox]';
  }
}
