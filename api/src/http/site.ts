import type { Context, Next } from 'koa';
// The site's own static server (dependency-free): the same _headers rules and 404 pages as in its tests.
import { createHandler } from '../../../site/server/serve.ts';

const API_PATHS = /^\/(v1\/|v1$|docs|healthz|readyz|metrics|mcp$)/;

/**
 * With SITE_DIR set, the API container also serves the built public site (CONTRACT §11): every GET or HEAD
 * outside the API's own paths goes to the site's static handler.
 */
export function serveSite(dir: string) {
  const handler = createHandler(dir);
  // Not async: API requests pass through without a promise of its own.
  return function site(ctx: Context, next: Next): Promise<void> {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || API_PATHS.test(ctx.path)) return next();
    ctx.respond = false;
    handler(ctx.req, ctx.res);
    return Promise.resolve();
  };
}
