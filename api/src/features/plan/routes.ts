import Router from '@koa/router';
import type { Deps } from '../../deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { PlanRoutes } from './frame/routes.ts';
import { entitlementRoutes } from './entitlements/routes.ts';
import { projectRoutes } from './projects/routes.ts';
import { milestoneRoutes } from './milestones/routes.ts';
import { updateRoutes } from './updates/routes.ts';
import { goalRoutes } from './goals/routes.ts';
import { boardRoutes } from './boards/routes.ts';
import { memberRoutes } from './members/routes.ts';
import { stateRoutes } from './states/routes.ts';
import { labelRoutes } from './labels/routes.ts';
import { channelRoutes } from './channels/routes.ts';
import { notificationCatalogRoutes } from './notifications/routes.ts';

/**
 * Every Plan resource, in registration order. A resource is a function that declares its routes on the Plan
 * registrar (frame/routes.ts); adding one to this list serves it and documents it (OpenAPI, scope table).
 */
export const PLAN_RESOURCES: ((plan: PlanRoutes) => void)[] = [
  entitlementRoutes,
  channelRoutes,
  notificationCatalogRoutes,
  goalRoutes,
  projectRoutes,
  milestoneRoutes,
  updateRoutes,
  boardRoutes,
  memberRoutes,
  stateRoutes,
  labelRoutes,
];

/** The one router of /v1/plan/. */
export function planRoutes(deps: Deps, middlewares: Middlewares): Router {
  const router = new Router();
  const plan = PlanRoutes.serve(router, deps, middlewares);
  for (const resource of PLAN_RESOURCES) resource(plan);
  return router;
}

/** The Plan's operations as declared, without serving them (for the OpenAPI document and the scope table). */
export function describePlan(): PlanRoutes {
  const plan = PlanRoutes.describe();
  for (const resource of PLAN_RESOURCES) resource(plan);
  return plan;
}
