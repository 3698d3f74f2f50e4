import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { stateRoutes } from './routes.ts';

/** Plan (beta): the columns (states) of a board. */
export const planStates: Feature = {
  name: 'plan/states',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, stateRoutes)],
  openapi: () => import('./openapi.ts'),
};
