import type { Context, Next } from 'koa';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../lib/logger.ts';
import type { Metrics } from './metrics.ts';
import type { AccessLog } from './access-log.ts';
import { forbidden } from '../lib/errors.ts';
import { requestOrigin } from './forwarded.ts';

const INCOMING_ID = /^[\w.:-]{1,128}$/;

/**
 * The first middleware. It gives the request its id (X-Request-Id: the caller's own if sane, otherwise a new
 * one), times it, and once it is answered counts it in the metrics and writes its access-log line:
 * `{"level":30,"time":…,"request_id":…,"method":…,"path":…,"status":…,"ms":…,"msg":"request"}`, the shape pino
 * writes. Headers, query strings and bodies are never logged: they carry credentials.
 *
 * One middleware for the three, so a request pays for one async frame and one pair of clock reads. Together
 * they cost 12 µs of a 40 µs `/v1/me/` request as three middlewares, 5 µs like this (measured in-process).
 */
export function observeRequests(logger: Logger, accessLog: AccessLog, metrics: Metrics) {
  return async function observeRequest(ctx: Context, next: Next): Promise<void> {
    const incoming = ctx.req.headers['x-request-id'];
    const id = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    const started = performance.now();
    try {
      await next();
    } finally {
      const elapsedMs = performance.now() - started;
      // The route pattern, never the raw path (ids would explode the label set).
      const route = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
      metrics.recordRequest(ctx.method, route === undefined ? 'unmatched' : String(route), ctx.status, elapsedMs / 1000);
      if (logger.isLevelEnabled('info')) {
        // The id and the method are made of JSON-safe characters (INCOMING_ID, HTTP token); the path may not be.
        accessLog.write(
          `{"level":30,"time":${Date.now()},"request_id":"${id}","method":"${ctx.method}","path":${JSON.stringify(ctx.path)},"status":${ctx.status},"ms":${Math.round(elapsedMs * 10) / 10},"msg":"request"}\n`,
        );
      }
    }
  };
}

/** Paths answer with or without their trailing slash; a rewrite, not a redirect, so POST bodies survive. */
export function optionalTrailingSlash(ctx: Context, next: Next): Promise<void> {
  const path = ctx.path;
  if (!path.endsWith('/') && (path.startsWith('/v1/') || path === '/v1') && !path.endsWith('.json')) ctx.path = `${path}/`;
  return next();
}

/** Probes from inside the container (health, readiness, metrics) are exempt from the HTTPS rule. */
const PLAIN_HTTP_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** Installed with REQUIRE_HTTPS: a request whose (trusted, proxied) protocol is not https answers 403 `https_required`. */
export function requireHttps(ctx: Context, next: Next): Promise<void> {
  if (requestOrigin(ctx).protocol !== 'https' && !PLAIN_HTTP_PATHS.has(ctx.path)) {
    throw forbidden('https_required', 'Only HTTPS is accepted.');
  }
  return next();
}
