import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { searchRoutes } from './routes.ts';

/** Plan (beta): GET /v1/plan/search/, across tasks, boards and projects (the index they share: ../search/index.ts). */
export const planSearch: Feature = {
  name: 'plan/search',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, searchRoutes)],
  openapi: () => import('./openapi.ts'),
};
