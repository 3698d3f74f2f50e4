import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { taskBulkRoutes } from './routes.ts';

/** Plan (beta): bulk task changes (their own 30-per-minute ceiling). */
export const planTaskBulk: Feature = {
  name: 'plan/task-bulk',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, taskBulkRoutes)],
  openapi: () => import('./openapi.ts'),
};
