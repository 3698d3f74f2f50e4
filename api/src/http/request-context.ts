import type { Context } from 'koa';
import { randomBytes } from 'node:crypto';
import { forbidden } from '../lib/errors.ts';
import type { ApiError } from '../lib/errors.ts';
import { requestOrigin } from './forwarded.ts';

const INCOMING_ID = /^[\w.:-]{1,128}$/;

/**
 * Request ids this process gives: a random prefix drawn at start (64 bits: no two processes share one) and a
 * counter, `9f86d081884c7d65-1f`. Unique across processes and restarts like a UUID, at the cost of an increment
 * (randomUUID cost about 0.5 µs a request, with its pool of random bytes refilled now and then).
 */
const ID_PREFIX = `${randomBytes(8).toString('hex')}-`;
let issued = 0;

/** The request's id (X-Request-Id): the caller's own when it is sane (a trace id it logs too), else a new one. */
export function requestIdOf(ctx: Context): string {
  const incoming = ctx.req.headers['x-request-id'];
  return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : ID_PREFIX + (++issued).toString(36);
}

/**
 * The access-log line of an answered request, in the shape pino writes:
 * `{"level":30,"time":…,"request_id":…,"method":…,"path":…,"status":…,"ms":…,"msg":"request"}`. Headers, query
 * strings and bodies are never logged: they carry credentials.
 */
export function accessLine(id: string, method: string, path: string, status: number, elapsedMs: number): string {
  // The id and the method are made of JSON-safe characters (INCOMING_ID, HTTP token); the path may not be.
  return `{"level":30,"time":${Date.now()},"request_id":"${id}","method":"${method}","path":${JSON.stringify(path)},"status":${status},"ms":${Math.round(elapsedMs * 10) / 10},"msg":"request"}\n`;
}

/** Paths answer with or without their trailing slash; a rewrite, not a redirect, so POST bodies survive. */
export function withTrailingSlash(path: string): string {
  return !path.endsWith('/') && (path.startsWith('/v1/') || path === '/v1') && !path.endsWith('.json') ? `${path}/` : path;
}

/** Probes from inside the container (health, readiness, metrics) are exempt from the HTTPS rule. */
const PLAIN_HTTP_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** With REQUIRE_HTTPS: a request whose (trusted, proxied) protocol is not https is refused with 403 `https_required`. */
export function httpsRefusal(ctx: Context, path: string): ApiError | null {
  if (requestOrigin(ctx).protocol === 'https' || PLAIN_HTTP_PATHS.has(path)) return null;
  return forbidden('https_required', 'Only HTTPS is accepted.');
}
