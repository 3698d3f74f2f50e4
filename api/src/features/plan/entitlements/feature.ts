import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { entitlementRoutes } from './routes.ts';

/** Plan (beta): entitlements: what an organization and a credential may use in Plan (never 402). */
export const planEntitlements: Feature = {
  name: 'plan/entitlements',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, entitlementRoutes)],
  openapi: () => import('./openapi.ts'),
};
