import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { taskHistoryRoutes } from './routes.ts';

/** Plan (beta): a task's events and activity, from the change log. */
export const planTaskHistory: Feature = {
  name: 'plan/task-history',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, taskHistoryRoutes)],
  openapi: () => import('./openapi.ts'),
};
