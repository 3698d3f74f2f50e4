import type { Context, Next } from 'koa';
import type { Logger } from '../lib/logger.ts';
import { ApiError, CustomThrottle, ValidationFailed, badRequest, notFound } from '../lib/errors.ts';

/** Errors from koa-body / co-body carry a `type`; map them to the contract's codes. */
function fromBodyParser(err: { status?: number; type?: string; body?: unknown }): ApiError | null {
  // co-body marks a JSON parse failure with status 400 and the raw text in `body`.
  if (err.type === 'entity.parse.failed' || (err.status === 400 && err.body !== undefined)) {
    return badRequest('malformed_json', 'Malformed JSON in the request body.');
  }
  if (err.type === 'entity.too.large' || err.status === 413) {
    return new ApiError(413, 'payload_too_large', 'The request body is larger than 1 MiB.');
  }
  if (err.type === 'encoding.unsupported' || err.status === 415) {
    return new ApiError(415, 'unsupported_media_type', 'Unsupported request body encoding.');
  }
  return null;
}

/** The spec's error body: `{detail, code, extra?}`. */
export const errorBody = (err: ApiError) => (err.extra ? { detail: err.message, code: err.code, extra: err.extra } : { detail: err.message, code: err.code });

export function errorHandler(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw notFound();
    } catch (raw) {
      const err = raw as Error & { status?: number; type?: string; body?: unknown };
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
      const known = err instanceof ApiError ? err : fromBodyParser(err);
      if (known) {
        ctx.status = known.status;
        for (const [name, value] of Object.entries(known.headers ?? {})) ctx.set(name, value);
        ctx.body = errorBody(known);
        return;
      }
      if (err.status === 405 || err.status === 501) {
        ctx.status = err.status;
        ctx.body = err.status === 405
          ? { detail: `Method "${ctx.method}" not allowed.`, code: 'method_not_allowed' }
          : { detail: 'Not implemented.', code: 'not_implemented' };
        return;
      }
      logger.error({ err, request_id: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { detail: 'Internal server error.', code: 'internal_error' };
    }
  };
}
