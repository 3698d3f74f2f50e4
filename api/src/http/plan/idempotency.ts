import { KEY_MAX, KEY_MIN } from '../../db/idempotency-keys.ts';
import { badRequest } from '../../lib/errors.ts';
import { sha256Hex } from '../../lib/secrets.ts';

/** What an Idempotency-Key may be, as the refusal, the OpenAPI document and the docs say it. */
export const IDEMPOTENCY_KEY_RULE = `${KEY_MIN} to ${KEY_MAX} printable ASCII characters without spaces (! to ~)`;

/** The Idempotency-Key header, or null when absent; 400 `invalid_idempotency_key` unless it follows the rule above. */
export function parseIdempotencyKey(raw: string | string[] | undefined): string | null {
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? null : raw;
  // Printable ASCII: the key is compared byte for byte and stored as sent.
  if (key === null || key.length < KEY_MIN || key.length > KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
    throw badRequest('invalid_idempotency_key', `Idempotency-Key must be ${IDEMPOTENCY_KEY_RULE}.`);
  }
  return key;
}

/** JSON with object keys sorted at every depth, so the same body always hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two requests "the same request": method, path with its query, and the body. */
export function requestFingerprint(method: string, pathWithQuery: string, body: unknown): string {
  return sha256Hex(`${method}\n${pathWithQuery}\n${canonicalJson(body ?? {})}`);
}
