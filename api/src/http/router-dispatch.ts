import type Router from '@koa/router';
import type { Layer } from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { notFound } from '../lib/errors.ts';
import { inOrder } from './chain.ts';

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
  const dispatchers = new Map(routers.map((router) => [router, dispatchRouter(router)]));
  const chain = (keep: (router: Router) => boolean): Middleware => inOrder(routers.filter(keep).map((router) => dispatchers.get(router)!));
  const byPrefix = new Map<string, Middleware>();
  for (const prefix of new Set([...prefixesOf.values()].flatMap((set) => [...set]))) {
    byPrefix.set(prefix, chain((router) => everywhere.has(router) || prefixesOf.get(router)!.has(prefix)));
  }
  const others = chain((router) => everywhere.has(router));
  return function routes(ctx, next) {
    return (byPrefix.get(requestPrefix(ctx.path)) ?? others)(ctx, next);
  };
}

type RoutedContext = Context & {
  matched?: Layer[];
  router?: Router;
  routeMatched?: boolean;
  captures?: string[];
  params: Record<string, string>;
  routerPath?: string;
  routerName?: string;
  newRouterPath?: string;
  _matchedRoute?: string | RegExp;
  _matchedRouteName?: string;
  [REQUEST_PATH]?: string;
};
const REQUEST_PATH = Symbol('routed path');

/**
 * One router's dispatch as `router.routes()` does it (@koa/router 15): the same match, `ctx.matched` for
 * allowedMethods, `ctx.params`, `ctx._matchedRoute`, and the matched layers' middleware in order. The
 * difference: the middleware chain of each set of matched layers is composed once, where router.routes()
 * builds and composes it on every request (with the Host header parsed for host matching). That was 3 to 4 µs
 * of a 30 µs `GET /v1/me/` (measured in-process). Host matching, `exclusive`, `routerPath` and router events
 * are not used by the app's routers, and refused here.
 */
function dispatchRouter(router: Router): Middleware {
  if (router.host || router.exclusive || router.opts.routerPath) {
    throw new Error('dispatchByPathPrefix: host matching, exclusive and routerPath are not supported');
  }
  const layerIds = new Map<Layer, number>();
  const chains = new Map<string, { run: Middleware; route: Layer | undefined }>();
  return (context, next) => {
    const ctx = context as RoutedContext;
    const path = ctx.newRouterPath || ctx.path || ctx.routerPath || '';
    const match = router.match(path, ctx.method);
    if (ctx.matched) ctx.matched.push(...match.path);
    else ctx.matched = match.path;
    ctx.router = router;
    ctx.routeMatched = match.route;
    if (!match.route) return next();

    if (layerIds.size !== router.stack.length) router.stack.forEach((layer, i) => layerIds.set(layer, i));
    const key = match.pathAndMethod.map((layer) => layerIds.get(layer)).join(',');
    let chain = chains.get(key);
    if (!chain) {
      const layers = match.pathAndMethod;
      chain = {
        run: inOrder(layers.flatMap((layer) => [enterLayer(layer), ...(layer.stack as Middleware[])])),
        route: layers.findLast((layer) => layer.methods.length > 0),
      };
      chains.set(key, chain);
    }
    if (chain.route) {
      ctx._matchedRoute = chain.route.path;
      if (chain.route.name) ctx._matchedRouteName = chain.route.name;
    }
    ctx[REQUEST_PATH] = path;
    return chain.run(ctx, next);
  };
}

/** What router.routes() does as it enters each matched layer. */
function enterLayer(layer: Layer): Middleware {
  return (context: Context, next: Next) => {
    const ctx = context as RoutedContext;
    const path = ctx[REQUEST_PATH]!;
    ctx.captures = layer.captures(path);
    ctx.params = layer.params(path, ctx.captures || [], ctx.params);
    // A path parameter holding a NUL character (%00) names nothing, on any route (PostgreSQL's text cannot hold one).
    if (ctx.captures.length > 0 && Object.values(ctx.params).some((value) => value.includes('\0'))) throw notFound();
    (ctx.request as Context['request'] & { params: Record<string, string> }).params = ctx.params;
    ctx.routerPath = layer.path as string;
    ctx.routerName = layer.name || undefined;
    ctx._matchedRoute = layer.path;
    if (layer.name) ctx._matchedRouteName = layer.name;
    return next();
  };
}

/** "/v1/teams/:uuid/" → "/v1/teams"; null when either of the first two segments is not plain text. */
function literalPrefix(path: string): string | null {
  const segments = path.split('/').filter((s) => s !== '').slice(0, 2);
  if (segments.some((s) => /[^\w.~-]/.test(s))) return null;
  return `/${segments.join('/')}`.toLowerCase();
}

/** The request's first two non-empty segments, lowercased: "/V1/Teams/t1/" → "/v1/teams". */
function requestPrefix(path: string): string {
  // The usual shape, "/a/b/…" or "/a/b", without building arrays (it runs on every request).
  const first = path.indexOf('/', 1);
  if (path.charCodeAt(0) === 47 && first > 1) {
    const second = path.indexOf('/', first + 1);
    if (second > first + 1) return path.slice(0, second).toLowerCase();
    if (second === -1 && first + 1 < path.length) return path.toLowerCase();
  }
  const segments = path.split('/', 4).filter((s) => s !== '').slice(0, 2);
  return `/${segments.join('/')}`.toLowerCase();
}

/** A static route (no parameter in its path) the frame reaches by one Map lookup instead of matching. */
export interface ExactRoute {
  /** The route's declared path: its label in the metrics. */
  path: string;
  /** The route's whole chain (router-level middleware, then its own), as router.routes() would run it. */
  run: Middleware;
}

/**
 * The static routes by `METHOD lowercased-path` (HEAD with GET), for the paths where exactly one route of all
 * the routers answers that method, and so the same chain as `dispatchByPathPrefix` would run. A path served by
 * a parameterised route as well, or by two routers, is left out: matching decides those, as before.
 */
export function exactRoutes(routers: Router[]): Map<string, ExactRoute> {
  const table = new Map<string, ExactRoute>();
  for (const router of routers) {
    for (const layer of router.stack) {
      if (layer.methods.length === 0 || typeof layer.path !== 'string' || layer.paramNames.length > 0 || /[:*(){}?+]/.test(layer.path)) continue;
      const path = layer.path;
      for (const method of layer.methods) {
        const matches = routers.map((r) => r.match(path, method)).filter((match) => match.route);
        if (matches.length !== 1 || matches[0].pathAndMethod.filter((l) => l.methods.length > 0).length !== 1) continue;
        const layers = matches[0].pathAndMethod;
        if (layers.some((l) => l.paramNames.length > 0)) continue;
        const chain = inOrder(layers.flatMap((l) => l.stack as Middleware[]));
        table.set(`${method} ${path.toLowerCase()}`, { path, run: (ctx, next) => chain(enterStatic(ctx as RoutedContext, path), next) });
      }
    }
  }
  return table;
}

/** What entering a static route's layers sets (enterLayer's fields, without matching: there is nothing to capture). */
function enterStatic(ctx: RoutedContext, path: string): Context {
  ctx.params = {};
  (ctx.request as Context['request'] & { params: Record<string, string> }).params = ctx.params;
  ctx.routerPath = path;
  ctx._matchedRoute = path;
  return ctx;
}
