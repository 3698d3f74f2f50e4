import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { milestoneRoutes } from './routes.ts';

/** Plan (beta): milestones of a project. */
export const planMilestones: Feature = {
  name: 'plan/milestones',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, milestoneRoutes)],
  openapi: () => import('./openapi.ts'),
};
