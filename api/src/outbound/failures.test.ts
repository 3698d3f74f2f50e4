import { describe, expect, it } from 'vitest';
import { errorResult } from './http-sender.ts';
import { LocalDeliveryError, isLocalFailure } from './failures.ts';
import { SecretBox, UnreadableSecretError } from './secret-box.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('delivery failures: local ones are final, the network\'s are retried', () => {
  it('tells what waiting cannot fix from what it can', () => {
    const local = [
      new LocalDeliveryError('cannot decrypt'),
      withCode('invalid x-webhook-secret header', 'UND_ERR_INVALID_ARG'),
      Object.assign(new TypeError('Invalid URL'), { code: 'ERR_INVALID_URL' }),
      new SyntaxError('Unexpected token } in JSON'),
      new TypeError("Cannot read properties of null (reading 'platform')"),
    ];
    const transient = [
      withCode('connect ECONNREFUSED 10.0.0.1:443', 'ECONNREFUSED'),
      withCode('other side closed', 'UND_ERR_SOCKET'),
      withCode('Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT'),
      new TypeError('fetch failed', { cause: withCode('getaddrinfo EAI_AGAIN', 'EAI_AGAIN') }),
      withCode('database is locked', 'SQLITE_BUSY'),
      new Error('Unsupported state or unable to authenticate data'), // what a wrong key throws inside: SecretBox.decrypt names it
    ];
    expect(local.map(isLocalFailure)).toEqual(local.map(() => true));
    expect(transient.map(isLocalFailure)).toEqual(transient.map(() => false));
    expect(errorResult(local[1], 3)).toEqual({ outcome: 'failed', error: 'local error, not retried: invalid x-webhook-secret header', durationMs: 3 });
    expect(errorResult(transient[0], 3)).toMatchObject({ outcome: 'retry', error: 'ECONNREFUSED: connect ECONNREFUSED 10.0.0.1:443' });
  });

  it('names the secret a key cannot open, and never its value', () => {
    const sealed = new SecretBox(Buffer.alloc(32, 1)).encrypt('super-secret-value');
    let thrown: unknown;
    try {
      new SecretBox(Buffer.alloc(32, 2)).decrypt(sealed, 'the webhook secret');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(UnreadableSecretError);
    expect(thrown).toBeInstanceOf(LocalDeliveryError);
    expect(isLocalFailure(thrown)).toBe(true);
    expect((thrown as Error).message).toBe('cannot decrypt the webhook secret: the encryption key (ENCRYPTION_KEY or DATA_DIR/encryption.key) is not the one it was stored with, or the stored value is damaged');
    expect(new SecretBox(Buffer.alloc(32, 1)).decrypt(sealed, 'x')).toBe('super-secret-value');
  });
});
