import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { activityRoutes } from './routes.ts';

/** Plan (beta): the organization's activity, from the change log. */
export const planActivity: Feature = {
  name: 'plan/activity',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, activityRoutes)],
  openapi: () => import('./openapi.ts'),
};
