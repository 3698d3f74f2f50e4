import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { taskDetailRoutes } from './routes.ts';

/** Plan (beta): one task's GET, with the collections it may embed (tasks, comments, files and activity together). */
export const planTaskDetail: Feature = {
  name: 'plan/task-detail',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, taskDetailRoutes)],
  openapi: () => import('./openapi.ts'),
};
