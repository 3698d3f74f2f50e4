import Koa from 'koa';
import type Router from '@koa/router';
import type { Config } from './config.ts';
import type { Db } from './db/connection.ts';
import type { Clock } from './lib/clock.ts';
import type { Logger } from './logger.ts';
import type { Deps } from './deps.ts';
import { CredentialCache } from './features/auth/cache.ts';
import { RateCounters } from './http/rate-counters.ts';
import { GroupCommit } from './db/group-commit.ts';
import { errorHandler } from './http/errors.ts';
import { makeMiddlewares } from './http/middlewares.ts';
import { observeRequests, optionalTrailingSlash, requireHttps } from './http/request-context.ts';
import { dispatchByPathPrefix } from './http/router-dispatch.ts';
import { AccessLog } from './http/access-log.ts';
import { serveSite } from './http/site.ts';
import { parseJsonBodies } from './http/json-body.ts';
import { createMetrics } from './features/meta/metrics.ts';
import { metaRoutes } from './features/meta/routes.ts';
import { meRoutes } from './features/me/routes.ts';
import { organizationRoutes } from './features/organization/routes.ts';
import { apiKeyRoutes } from './features/api-keys/routes.ts';
import { userRoutes } from './features/users/routes.ts';
import { teamRoutes } from './features/teams/routes.ts';
import { invitationRoutes } from './features/invitations/routes.ts';
import { checkinRoutes } from './features/checkins/routes.ts';
import { checkinQuestionRoutes } from './features/checkins/questions-routes.ts';
import { checkinResponseRoutes } from './features/checkins/responses-routes.ts';
import { templateRoutes } from './features/templates/routes.ts';
import { moodRoutes } from './features/mood/routes.ts';
import { buildDeliveryServices } from './features/deliveries/setup.ts';
import type { DeliveryOptions } from './features/deliveries/setup.ts';
import { deliveryRoutes } from './features/deliveries/routes.ts';
import { webhookRoutes } from './features/webhooks/routes.ts';
import { emailRoutes } from './features/email/routes.ts';
import { inboundRoutes } from './features/inbound/routes.ts';
import { chatRoutes } from './features/chat/routes.ts';
import { agentRoutes } from './features/agents/routes.ts';
import { planRoutes } from './features/plan/routes.ts';

export interface AppDependencies {
  db: Db;
  clock: Clock;
  config: Config;
  logger: Logger;
  /** Seams for the delivery services (tests: a CA for local HTTPS receivers, a resolver, a mailer). */
  delivery?: DeliveryOptions;
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
  const { delivery: deliveryOptions, ...base } = dependencies;
  const deps: Deps = {
    ...base,
    credentialCache: new CredentialCache(dependencies.config.authCacheSeconds),
    rateCounters: new RateCounters(dependencies.db, dependencies.logger, dependencies.clock),
    writes: new GroupCommit(dependencies.db),
    ...buildDeliveryServices(base, deliveryOptions),
  };
  const middlewares = makeMiddlewares(deps);
  const metrics = createMetrics();
  const accessLog = new AccessLog(deps.logger);
  // The OpenAPI document is built on its first request: its descriptions are loaded only then.
  let openApiDocument: Promise<unknown> | null = null;
  const openApi = () => (openApiDocument ??= import('./openapi/catalog.ts').then((catalog) => catalog.buildDocument(deps.config.publicUrl)));

  const routers: Router[] = [
    metaRoutes(deps, middlewares, { metrics, openApi }),
    meRoutes(deps, middlewares),
    organizationRoutes(deps, middlewares),
    apiKeyRoutes(deps, middlewares),
    // People, teams and check-ins (issue 4).
    userRoutes(deps, middlewares),
    invitationRoutes(deps, middlewares),
    teamRoutes(deps, middlewares),
    checkinRoutes(deps, middlewares),
    checkinQuestionRoutes(deps, middlewares),
    checkinResponseRoutes(deps, middlewares),
    templateRoutes(deps, middlewares),
    moodRoutes(deps, middlewares),
    // Delivery (issue 5).
    deliveryRoutes(deps, middlewares),
    webhookRoutes(deps, middlewares),
    emailRoutes(deps, middlewares),
    inboundRoutes(deps, middlewares),
    chatRoutes(deps, middlewares),
    // Agents (issue 6).
    ...agentRoutes(deps, middlewares),
    planRoutes(deps, middlewares),
  ];

  const app = new Koa({ proxy: true });
  app.silent = true;
  app.use(observeRequests(deps.logger, accessLog, metrics));
  app.use(errorHandler(deps.logger));
  if (deps.config.requireHttps) app.use(requireHttps);
  app.use(optionalTrailingSlash);
  if (deps.config.siteDir) app.use(serveSite(deps.config.siteDir));
  app.use(parseJsonBodies());
  app.use(dispatchByPathPrefix(routers));
  // One check after every router: it reads the routes all of them matched (405 for a known path, wrong method).
  app.use(routers[0].allowedMethods({ throw: true }));

  const routes = routers.flatMap((router) =>
    router.stack.flatMap((layer) =>
      layer.methods.filter((method) => method !== 'HEAD').map((method) => ({ method, path: String(layer.path) })),
    ),
  );
  /** Releases what the app's services hold: delivery workers, outbound connections, SMTP, pending rate counts, access-log lines. */
  async function close(): Promise<void> {
    accessLog.flush();
    deps.delivery.stop();
    await deps.delivery.idle();
    await deps.outbound.http.close();
    deps.mailer?.close();
    await deps.rateCounters.close();
  }
  return { app, routes, deps, accessLog, close };
}
