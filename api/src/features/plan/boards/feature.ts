import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { boardRoutes } from './routes.ts';

/** Plan (beta): boards. */
export const planBoards: Feature = {
  name: 'plan/boards',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, boardRoutes)],
  openapi: () => import('./openapi.ts'),
};
