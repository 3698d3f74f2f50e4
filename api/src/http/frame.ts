import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Logger } from '../lib/logger.ts';
import type { TrustProxy } from '../lib/trust-proxy.ts';
import type { AccessLog } from './access-log.ts';
import { DONE, inOrder } from './chain.ts';
import { answerError, answerUnanswered } from './errors.ts';
import { forwardedFrom } from './forwarded.ts';
import type { Metrics, RouteSeries } from './metrics.ts';
import { refuseNulInQuery } from './query.ts';
import { accessLine, httpsRefusal, requestIdOf, withTrailingSlash } from './request-context.ts';
import { dispatchByPathPrefix, exactRoutes } from './router-dispatch.ts';

export interface FrameOptions {
  logger: Logger;
  accessLog: AccessLog;
  metrics: Metrics;
  trustProxy: TrustProxy;
  requireHttps: boolean;
  /** Every feature's router, in routing order. */
  routers: Router[];
  /** What serves pages outside the API (the web app, the site): asked before the body is read, never under /v1/. */
  pages: Middleware[];
  /** The JSON body parser (http/json-body.ts). */
  body: Middleware;
  /** The MCP endpoint, given the frame's routing for its tools' REST calls. */
  mcp: (dispatchRoute: (ctx: Context) => Promise<void>) => Middleware;
}

/** A static route as the frame keeps it: its chain and its metrics series. */
interface StaticRoute {
  run: Middleware;
  series: RouteSeries;
}

const ROUTE = Symbol('static route');
type FramedContext = Context & { [ROUTE]?: StaticRoute; _matchedRoute?: string | RegExp };

const END = () => DONE;

/**
 * The one frame every request runs in, in place of a stack of async middlewares (each of which cost a promise
 * and a microtask per request, whether it had anything to wait for or not). In order:
 *
 * 1. the request id (X-Request-Id) and the start time;
 * 2. REQUIRE_HTTPS, from the forwarded origin (worked out only when something asks: http/forwarded.ts);
 * 3. the path: the trailing slash is optional under /v1/; outside /v1/, the web app and the site first;
 * 4. the JSON body, for the methods that carry one; /mcp goes to the MCP endpoint;
 * 5. a NUL character in the query: 400;
 * 6. routing: a static route is one Map lookup (`METHOD path`, any case); the rest are matched by the routers
 *    as before (`dispatchByPathPrefix`, then 405/501 from the matched paths);
 * 7. the route's own chain (credential, hourly budget, validation, handler: `inOrder` makes each step that has
 *    nothing to wait for a plain call);
 * 8. nothing answered: 404; anything thrown: the spec's error body (http/errors.ts);
 * 9. the request counted in its route's metrics series and its access-log line written.
 *
 * While every step answers synchronously (a cached credential, a leased budget, a handler with no I/O, as
 * `GET /v1/me/` is), no promise is made or awaited between the first step and the last.
 */
export function requestFrame(options: FrameOptions): Middleware {
  const { logger, accessLog, metrics, routers } = options;
  const forwarded = forwardedFrom(options.trustProxy);
  const statics = new Map<string, StaticRoute>();
  for (const [key, route] of exactRoutes(routers)) statics.set(key, { run: route.run, series: metrics.routeSeries(key.slice(0, key.indexOf(' ')), route.path) });
  // One check after every router: it reads the routes all of them matched (405 for a known path, wrong method).
  const matched = inOrder([dispatchByPathPrefix(routers), routers[0].allowedMethods({ throw: true }) as Middleware]);

  /** Steps 5 to 8 (but the error body): what a /v1/ request, or an MCP tool's REST call, meets once its body is read. */
  function route(ctx: FramedContext): Promise<unknown> {
    refuseNulInQuery(ctx);
    const found = statics.get(`${ctx.method} ${ctx.path.toLowerCase()}`);
    ctx[ROUTE] = found;
    const pending = found ? found.run(ctx, END) : matched(ctx, END);
    if (pending === DONE) {
      answerUnanswered(ctx);
      return DONE;
    }
    return (pending as Promise<unknown>).then(() => answerUnanswered(ctx));
  }
  const routeAfterBody = (ctx: Context) => options.body(ctx, () => route(ctx)) as Promise<unknown>;

  /** An MCP tool's REST call: the path rule, routing and the error body, as an HTTP request meets them. */
  async function dispatchRoute(ctx: Context): Promise<void> {
    try {
      const path = withTrailingSlash(ctx.path);
      if (path !== ctx.path) ctx.path = path;
      await route(ctx);
    } catch (err) {
      answerError(ctx, err, logger);
    }
  }
  const outside = inOrder([...options.pages, options.body, options.mcp(dispatchRoute), (ctx) => route(ctx)]);

  /** Steps 2 to 8: DONE when nothing was left to wait for. */
  function handle(ctx: Context): Promise<unknown> {
    const requested = ctx.path;
    if (options.requireHttps) {
      const refusal = httpsRefusal(ctx, requested);
      if (refusal) throw refusal;
    }
    const path = withTrailingSlash(requested);
    if (path !== requested) ctx.path = path;
    return path.startsWith('/v1/') ? routeAfterBody(ctx) : outside(ctx, END);
  }

  function finish(ctx: FramedContext, id: string, started: number): void {
    const elapsedMs = performance.now() - started;
    const series = ctx[ROUTE]?.series ?? metrics.routeSeries(ctx.method, ctx._matchedRoute === undefined ? 'unmatched' : String(ctx._matchedRoute));
    metrics.record(series, ctx.status, elapsedMs / 1000);
    if (logger.isLevelEnabled('info')) accessLog.write(accessLine(id, ctx.method, ctx.path, ctx.status, elapsedMs));
  }

  return function frame(ctx: Context): Promise<void> {
    const started = performance.now();
    const id = requestIdOf(ctx);
    ctx.state.requestId = id;
    ctx.state.forwarded = forwarded;
    ctx.res.setHeader('X-Request-Id', id);
    let pending: Promise<unknown>;
    try {
      pending = handle(ctx);
    } catch (err) {
      answerError(ctx, err, logger);
      pending = DONE;
    }
    if (pending === DONE) {
      finish(ctx, id, started);
      return DONE;
    }
    return pending.then(
      () => finish(ctx, id, started),
      (err: unknown) => {
        answerError(ctx, err, logger);
        finish(ctx, id, started);
      },
    );
  };
}
