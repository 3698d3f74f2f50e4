import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { timelineRoutes } from './routes.ts';

/** Plan (beta): the timeline of dated tasks. */
export const planTimeline: Feature = {
  name: 'plan/timeline',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, timelineRoutes)],
  openapi: () => import('./openapi.ts'),
};
