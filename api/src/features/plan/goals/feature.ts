import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { goalRoutes } from './routes.ts';

/** Plan (beta): goals, and the projects linked to them. */
export const planGoals: Feature = {
  name: 'plan/goals',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, goalRoutes)],
  openapi: () => import('./openapi.ts'),
};
