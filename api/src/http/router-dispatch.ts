import type Router from '@koa/router';
import type { Middleware } from 'koa';

/**
 * The feature routers as one middleware that runs, in their order, only the routers with a route under the
 * request's first two path segments ("/v1/teams"). Chained one after another, every request paid the dispatch
 * of each router before its own (Host header parsing, matching, events): an agent report crossed twenty.
 *
 * Exact, not a heuristic: a router whose routes all start elsewhere could not have matched the request, and
 * a router only runs its router-level middleware (router.use) when one of its routes matched, so those layers
 * do not count. A router with a route whose first two segments are not literal (a parameter, a pattern) runs
 * for every request. Matching is case-insensitive, like the routers' own.
 */
export function dispatchByPathPrefix(routers: Router[]): Middleware {
  const everywhere = new Set<Router>();
  const prefixesOf = new Map<Router, Set<string>>();
  for (const router of routers) {
    const prefixes = new Set<string>();
    for (const layer of router.stack) {
      if (layer.methods.length === 0) continue; // router.use() layers
      const prefix = typeof layer.path === 'string' ? literalPrefix(layer.path) : null;
      if (prefix === null) everywhere.add(router);
      else prefixes.add(prefix);
    }
    prefixesOf.set(router, prefixes);
  }
  const chain = (keep: (router: Router) => boolean): Middleware => inOrder(routers.filter(keep).map((router) => router.routes() as Middleware));
  const byPrefix = new Map<string, Middleware>();
  for (const prefix of new Set([...prefixesOf.values()].flatMap((set) => [...set]))) {
    byPrefix.set(prefix, chain((router) => everywhere.has(router) || prefixesOf.get(router)!.has(prefix)));
  }
  const others = chain((router) => everywhere.has(router));
  return function routes(ctx, next) {
    return (byPrefix.get(requestPrefix(ctx.path)) ?? others)(ctx, next);
  };
}

/** The routers' middlewares one after another, as app.use() would run them (each calls next() at most once). */
function inOrder(middlewares: Middleware[]): Middleware {
  return (ctx, next) => {
    const run = (i: number): Promise<unknown> => (i === middlewares.length ? next() : Promise.resolve(middlewares[i](ctx, () => run(i + 1))));
    return run(0);
  };
}

/** "/v1/teams/:uuid/" → "/v1/teams"; null when either of the first two segments is not plain text. */
function literalPrefix(path: string): string | null {
  const segments = path.split('/').filter((s) => s !== '').slice(0, 2);
  if (segments.some((s) => /[^\w.~-]/.test(s))) return null;
  return `/${segments.join('/')}`.toLowerCase();
}

function requestPrefix(path: string): string {
  const segments = path.split('/', 4).filter((s) => s !== '').slice(0, 2);
  return `/${segments.join('/')}`.toLowerCase();
}
