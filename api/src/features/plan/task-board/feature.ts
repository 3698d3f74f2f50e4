import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { taskBoardRoutes } from './routes.ts';

/** Plan (beta): any slice of the workspace's tasks as a board (columns, swimlanes, a window per cell). */
export const planTaskBoard: Feature = {
  name: 'plan/task-board',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, taskBoardRoutes)],
  openapi: () => import('./openapi.ts'),
};
