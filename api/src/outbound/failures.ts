/**
 * Which failed deliveries are worth another try. The network and the far side change: a refused connection, a
 * timeout or a reset is retried on the schedule. What is wrong on this side does not change by waiting: a secret
 * the configured ENCRYPTION_KEY cannot open (UnreadableSecretError, thrown by SecretBox.decrypt), a value an HTTP
 * request cannot carry, a stored payload that does not parse. Those fail at once, for good, with the reason in
 * GET /v1/deliveries/ (an admin can redeliver after fixing the cause).
 */
export class LocalDeliveryError extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = 'LocalDeliveryError';
  }
}

/** Codes Node and undici give a request they refuse to send as asked, before any byte goes out. */
const LOCAL_CODES = new Set([
  'UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED', 'ERR_INVALID_URL', 'ERR_INVALID_ARG_TYPE', 'ERR_INVALID_ARG_VALUE',
  'ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_HTTP_INVALID_HEADER_VALUE', 'ERR_UNESCAPED_CHARACTERS',
]);

export function isLocalFailure(err: unknown): boolean {
  if (err instanceof LocalDeliveryError) return true;
  const e = err as { code?: unknown; cause?: unknown } | null;
  if (typeof e?.code === 'string' && LOCAL_CODES.has(e.code)) return true;
  // JavaScript's own errors with no I/O behind them (no code, no cause; fetch's "fetch failed" has a cause): a
  // stored payload that does not parse, a value of the wrong shape.
  return (err instanceof SyntaxError || err instanceof TypeError || err instanceof RangeError) && e?.code === undefined && e?.cause === undefined;
}

/** The reason a local failure shows in the attempts log: what went wrong, never a secret. */
export function describeLocalFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return `local error, not retried: ${message}`.slice(0, 500);
}
