import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import type { Deps } from '../src/http/deps.ts';
import { errorHandler } from '../src/http/errors.ts';
import { parseJsonBodies } from '../src/http/json-body.ts';
import { makeMiddlewares } from '../src/http/middlewares.ts';
import { PlanRoutes } from '../src/http/plan/registrar.ts';
import { PLAN_HOOKS } from '../src/features/plan/frame/hooks.ts';

/**
 * For frame tests: serves resources declared only by the test through the real frame (real credentials, real
 * database) on a listener of its own, so a gate step no shipped route exercises yet (person-only endpoints, an
 * operation that fails unexpectedly) is tested the way every route runs.
 */
export async function serveTestResources(deps: Deps, declare: (plan: PlanRoutes) => void) {
  const router = new Router();
  declare(PlanRoutes.serve(router, deps, makeMiddlewares(deps), PLAN_HOOKS));
  const app = new Koa();
  app.silent = true;
  app.use(errorHandler(deps.logger));
  app.use(parseJsonBodies());
  app.use(router.routes());
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
