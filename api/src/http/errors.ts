import type { Context, Next } from 'koa';
import { isDatabaseUnavailable } from '../db/connection.ts';
import { isUniqueViolation } from '../db/retry.ts';
import type { Logger } from '../lib/logger.ts';
import { ApiError, CustomThrottle, ValidationFailed, notFound } from '../lib/errors.ts';
import { UnreadableSecretError } from '../outbound/secret-box.ts';

/** The spec's error body: `{detail, code, extra?}`. */
export const errorBody = (err: ApiError) => (err.extra ? { detail: err.message, code: err.code, extra: err.extra } : { detail: err.message, code: err.code });

const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Retry-After of a 429 or 503 that names no time of its own. */
const DEFAULT_RETRY_AFTER_SECONDS = 60;

/** As a middleware (tests' small apps, the Plan's test resources): what the frame (http/frame.ts) does around every request. */
export function errorHandler(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      answerUnanswered(ctx);
    } catch (err) {
      answerError(ctx, err, logger);
    }
  };
}

/** A request nothing answered (no route, or a route that set no body) is the spec's 404. */
export function answerUnanswered(ctx: Context): void {
  if (ctx.status === 404 && ctx.body === undefined) throw notFound();
}

/**
 * Answers what a request threw as the spec says: a domain error (lib/errors.ts) with its status and code, a
 * concurrent write, an unavailable database, and anything else as a logged 500 `internal_error`.
 */
export function answerError(ctx: Context, raw: unknown, logger: Logger): void {
  const err = raw as Error & { status?: number };
  if (err instanceof ValidationFailed) {
    ctx.status = 400;
    ctx.body = err.fields;
    return;
  }
  if (err instanceof CustomThrottle) {
    ctx.status = 429;
    ctx.set('Retry-After', String(err.retryAfter));
    ctx.body = err.payload;
    return;
  }
  const known = err instanceof ApiError ? err : null;
  if (known) {
    ctx.status = known.status;
    for (const [name, value] of Object.entries(known.headers ?? {})) ctx.set(name, value);
    // Every 429 and 503 says when to come back, in seconds (clients such as the DailyBot CLI back off by it).
    if ((known.status === 429 || known.status === 503) && !ctx.response.get('Retry-After')) ctx.set('Retry-After', String(DEFAULT_RETRY_AFTER_SECONDS));
    ctx.body = errorBody(known);
    return;
  }
  if (err instanceof UnreadableSecretError) {
    // Only a request that must use a stored secret now (a call to the chat platform) gets here: the server
    // cannot do it until an operator gives it back the key, which the start-time check normally ensures.
    logger.error({ err, request_id: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'stored secret unreadable');
    ctx.status = 503;
    ctx.set('Retry-After', String(DEFAULT_RETRY_AFTER_SECONDS));
    ctx.body = { detail: 'A stored secret cannot be decrypted with this server\'s encryption key (ENCRYPTION_KEY); an operator must restore the key it was stored with.', code: 'stored_secret_unreadable' };
    return;
  }
  if (err.status === 405 || err.status === 501) {
    ctx.status = err.status;
    ctx.body = err.status === 405
      ? { detail: `Method "${ctx.method}" not allowed.`, code: 'method_not_allowed' }
      : { detail: 'Not implemented.', code: 'not_implemented' };
    return;
  }
  if (isUniqueViolation(err)) {
    // A concurrent request inserted the same row first, and running this one's transaction again did not
    // settle it (db/retry.ts). The client's request was fine: it may send it again.
    logger.warn({ err, request_id: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'concurrent write');
    ctx.status = 409;
    ctx.body = { detail: 'A concurrent request wrote the same thing at the same moment; send this request again.', code: 'concurrent_write' };
    return;
  }
  if (isDatabaseUnavailable(err)) {
    // Nothing the client did: the database is unreachable, out of connections, or the statement ran out of
    // time. The pool connects afresh for the next request; the client retries this one.
    logger.warn({ err, request_id: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'database unavailable');
    ctx.status = 503;
    ctx.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    ctx.body = { detail: `The database is unavailable. Retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`, code: 'database_unavailable' };
    return;
  }
  logger.error({ err, request_id: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'unhandled error');
  ctx.status = 500;
  ctx.body = { detail: 'Internal server error.', code: 'internal_error' };
}
