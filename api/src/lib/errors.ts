/**
 * The errors of the API's domain. Services throw them; they carry the spec's status and code (those are part of
 * the contract, not of the web layer) and never touch a request. `errorHandler` (http/errors.ts) turns each
 * into the spec's body: `{detail, code, extra?}`, the bare field map for request-body validation, or a
 * throttle body of its own.
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
