import type { Context, Next } from 'koa';
import type { Logger } from '../lib/logger.ts';

/**
 * One hierarchy for every error the API answers. Handlers throw; `errorHandler` turns the error into the
 * spec's body: `{detail, code, extra?}`, or the bare field map for request-body validation.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  constructor(
    status: number,
    code: string,
    detail: string,
    options: { extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.status = status;
    this.code = code;
    this.extra = options.extra;
    this.headers = options.headers;
  }

  body(): Record<string, unknown> {
    return this.extra ? { detail: this.message, code: this.code, extra: this.extra } : { detail: this.message, code: this.code };
  }
}

/** 400 with a field map `{"field.path": ["message", …]}` and no `code` (spec: request-body validation). */
export class ValidationFailed extends Error {
  readonly fields: Record<string, string[]>;
  constructor(fields: Record<string, string[]>) {
    super('validation failed');
    this.fields = fields;
  }
}

/** A throttle answer whose body is not the general one (the agent e-mail limit: `{detail, limit, current}`). */
export class CustomThrottle extends Error {
  readonly retryAfter: number;
  readonly payload: Record<string, unknown>;
  constructor(retryAfter: number, payload: Record<string, unknown>) {
    super(String(payload.detail ?? 'throttled'));
    this.retryAfter = retryAfter;
    this.payload = payload;
  }
}

export const AUTH_DETAIL = 'Authentication credentials were not provided.';

export const badRequest = (code: string, detail: string, extra?: Record<string, unknown>) =>
  new ApiError(400, code, detail, { extra });
export const unauthorized = (code: string) => new ApiError(401, code, AUTH_DETAIL, { headers: { 'WWW-Authenticate': 'Bearer, X-API-KEY' } });
export const forbidden = (code: string, detail: string) => new ApiError(403, code, detail);
/** The same body whether the object is absent or belongs to someone who may not see it. */
export const notFound = () => new ApiError(404, 'not_found', 'Not found.');
export const conflict = (code: string, detail: string, extra?: Record<string, unknown>) =>
  new ApiError(409, code, detail, { extra });
export const unknownField = (parameter: string) =>
  badRequest('unknown_field', `Unknown field: ${parameter}.`, { parameter });
export const invalidFilter = (parameter: string, detail?: string) =>
  badRequest('invalid_filter_value', detail ?? `Invalid value for ${parameter}.`, { parameter });

export function throttled(retryAfter: number, detail?: string): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfter));
  return new ApiError(429, 'throttled', detail ?? `Request was throttled. Expected available in ${seconds} seconds.`, {
    extra: { retry_after: seconds },
    headers: { 'Retry-After': String(seconds) },
  });
}

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
        ctx.body = known.body();
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
