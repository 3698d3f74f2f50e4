import fs from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets Rollcall must send back out (webhook signing secrets, bearers, chat bot tokens and incoming-webhook
 * URLs) are stored encrypted with AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>` in base64url. The key comes from
 * `ENCRYPTION_KEY`, or from `DATA_DIR/encryption.key` (created with 32 random bytes, mode 0600, on first start).
 */
export class SecretBox {
  readonly #key: Buffer;
  readonly #macKeys = new Map<string, Buffer>();
  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.#key = key;
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unreadable sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
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

export function loadSecretBox(config: { encryptionKey: Buffer | null; dataDir: string }): SecretBox {
  if (config.encryptionKey) return new SecretBox(config.encryptionKey);
  const file = path.join(config.dataDir, 'encryption.key');
  try {
    return new SecretBox(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return new SecretBox(key);
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return new SecretBox(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
  }
}
