import Koa from 'koa';
import { CredentialCache } from './auth/cache.ts';
import type { Db } from './db/connection.ts';
import { Budgets } from './db/counters.ts';
import { Notifications } from './db/notifications.ts';
import { GroupCommit } from './db/group-commit.ts';
import { features } from './features/index.ts';
import { AccessLog } from './http/access-log.ts';
import type { Deps } from './http/deps.ts';
import { errorHandler } from './http/errors.ts';
import { parseJsonBodies } from './http/json-body.ts';
import { refuseNulInQuery } from './http/query.ts';
import { createMetrics } from './http/metrics.ts';
import { makeMiddlewares } from './http/middlewares.ts';
import { observeRequests, optionalTrailingSlash, requireHttps } from './http/request-context.ts';
import { forwardedRequest } from './http/forwarded.ts';
import { dispatchByPathPrefix } from './http/router-dispatch.ts';
import { serveSite } from './http/site.ts';
import { serveWebApp } from './http/web-app.ts';
import type { Clock } from './lib/clock.ts';
import type { Config } from './lib/config.ts';
import type { Logger } from './lib/logger.ts';
import { createFileStore } from './outbound/files/index.ts';
import type { FileStore } from './outbound/files/index.ts';
import { onUnreadableTimestamp } from './lib/time.ts';
import { makeDispatch } from './mcp/dispatch.ts';
import { lazyMcpEndpoint } from './mcp/lazy-endpoint.ts';
import { buildDeliveryServices, connectFeatures } from './wiring.ts';
import type { DeliveryOptions } from './wiring.ts';

export interface AppDependencies {
  db: Db;
  clock: Clock;
  config: Config;
  logger: Logger;
  /** Seams for the delivery services (tests: a CA for local HTTPS receivers, a resolver, a mailer). */
  delivery?: DeliveryOptions;
  /** The attachment store, when not the configured one (tests: a store that is down). */
  files?: FileStore;
}

export interface RouteInfo {
  method: string;
  path: string;
}

/**
 * Builds the Koa application from explicit dependencies. It never listens: server.ts does, and tests put it
 * behind their own ephemeral listener.
 */
export function createApp(dependencies: AppDependencies): { app: Koa; routes: RouteInfo[]; deps: Deps; accessLog: AccessLog; close: () => Promise<void> } {
  const { delivery: deliveryOptions, files, ...base } = dependencies;
  // The OpenAPI document is built on its first request: its descriptions are loaded only then.
  let openApiDocument: Promise<unknown> | null = null;
  const notifications = new Notifications(base.db, base.config.databaseUrl, base.logger, { connectTimeoutMs: base.config.database.connectTimeoutMs });
  const deps: Deps = {
    ...base,
    notifications,
    credentialCache: new CredentialCache(base.config.authCacheSeconds, { notifications }),
    budgets: new Budgets(base.db, base.clock, base.logger),
    writes: new GroupCommit(base.db),
    ...buildDeliveryServices({ ...base, notifications }, deliveryOptions),
    metrics: createMetrics(),
    files: files ?? createFileStore(base.config),
    openApiDocument: () => (openApiDocument ??= import('./openapi/catalog.ts').then((catalog) => catalog.buildDocument(base.config.publicUrl))),
  };
  connectFeatures(deps, features);
  void notifications.start();
  onUnreadableTimestamp((value) => deps.logger.warn({ value }, 'a stored timestamp is not a readable date-time; the API shows it as null'));
  const middlewares = makeMiddlewares(deps);
  const accessLog = new AccessLog(deps.logger);
  const routers = features.flatMap((feature) => feature.routers(deps, middlewares));

  // Koa believes no X-Forwarded-* header: http/forwarded.ts does, from the proxies TRUST_PROXY names only.
  const app = new Koa({ proxy: false });
  app.silent = true;
  app.use(observeRequests(deps.logger, accessLog, deps.metrics));
  app.use(errorHandler(deps.logger));
  app.use(forwardedRequest(deps.config.trustProxy));
  if (deps.config.requireHttps) app.use(requireHttps);
  app.use(optionalTrailingSlash);
  app.use(serveWebApp(deps.config.appDir));
  if (deps.config.siteDir) app.use(serveSite(deps.config.siteDir));
  app.use(parseJsonBodies(features.flatMap((feature) => feature.rawBodyPaths ?? [])));
  const routing: Koa.Middleware[] = [
    refuseNulInQuery,
    dispatchByPathPrefix(routers),
    // One check after every router: it reads the routes all of them matched (405 for a known path, wrong method).
    routers[0].allowedMethods({ throw: true }) as Koa.Middleware,
  ];
  // The Model Context Protocol endpoint: each tool call runs its REST route, through the same error handler and routers.
  app.use(lazyMcpEndpoint(deps, middlewares, makeDispatch(app, [errorHandler(deps.logger), optionalTrailingSlash, ...routing])));
  for (const middleware of routing) app.use(middleware);

  const routes = routers.flatMap((router) =>
    router.stack.flatMap((layer) =>
      layer.methods.filter((method) => method !== 'HEAD').map((method) => ({ method, path: String(layer.path) })),
    ),
  );
  /** Releases what the app's services hold: delivery workers, outbound connections, SMTP, unused budget, the listening connection, access-log lines. */
  async function close(): Promise<void> {
    accessLog.flush();
    deps.delivery.stop();
    await deps.delivery.idle();
    await deps.outbound.http.close();
    await deps.outbound.llm.close();
    deps.mailer?.close();
    await deps.budgets.close();
    await notifications.close();
  }
  return { app, routes, deps, accessLog, close };
}
