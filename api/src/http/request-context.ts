import type { Context, Next } from 'koa';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.ts';
import { forbidden } from './errors.ts';

const INCOMING_ID = /^[\w.:-]{1,128}$/;

/** Every response carries X-Request-Id: the caller's own if sane, otherwise a new one. */
export async function requestId(ctx: Context, next: Next): Promise<void> {
  const incoming = ctx.get('X-Request-Id');
  const id = INCOMING_ID.test(incoming) ? incoming : randomUUID();
  ctx.state.requestId = id;
  ctx.set('X-Request-Id', id);
  await next();
}

/** One line per request. Headers and bodies are never logged: they carry credentials. */
export function accessLog(logger: Logger) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const started = performance.now();
    try {
      await next();
    } finally {
      if (logger.isLevelEnabled('info')) {
        logger.info(
          { request_id: ctx.state.requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 },
          'request',
        );
      }
    }
  };
}

/** Paths answer with or without their trailing slash; a rewrite, not a redirect, so POST bodies survive. */
export async function optionalTrailingSlash(ctx: Context, next: Next): Promise<void> {
  if (ctx.path.startsWith('/v1/') && !ctx.path.endsWith('/') && !ctx.path.endsWith('.json')) {
    ctx.path = `${ctx.path}/`;
  }
  await next();
}

/** Probes from inside the container (health, readiness, metrics) are exempt from the HTTPS rule. */
const PLAIN_HTTP_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** With REQUIRE_HTTPS, a request whose (trusted, proxied) protocol is not https answers 403 `https_required`. */
export function requireHttps(enabled: boolean) {
  return async function httpsOnly(ctx: Context, next: Next): Promise<void> {
    if (enabled && ctx.protocol !== 'https' && !PLAIN_HTTP_PATHS.has(ctx.path)) {
      throw forbidden('https_required', 'Only HTTPS is accepted.');
    }
    await next();
  };
}
