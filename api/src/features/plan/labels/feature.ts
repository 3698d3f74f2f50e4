import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { labelRoutes } from './routes.ts';

/** Plan (beta): labels of a board. */
export const planLabels: Feature = {
  name: 'plan/labels',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, labelRoutes)],
  openapi: () => import('./openapi.ts'),
};
