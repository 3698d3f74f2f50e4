import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { taskRoutes } from './routes.ts';

/** Plan (beta): tasks, their placement, relations, participants and subscriptions. */
export const planTasks: Feature = {
  name: 'plan/tasks',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, taskRoutes)],
  openapi: () => import('./openapi.ts'),
};
