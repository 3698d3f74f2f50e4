import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { viewRoutes } from './routes.ts';

/** Plan (beta): saved views of boards and projects (ETag on reads, If-Match on writes). */
export const planViews: Feature = {
  name: 'plan/views',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, viewRoutes)],
  openapi: () => import('./openapi.ts'),
};
