import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { meRoutes } from './routes.ts';

/** Plan (beta): the person's own doors: activity cursor, recents, task counts, daily briefing, notification preferences. */
export const planMe: Feature = {
  name: 'plan/me',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, meRoutes)],
  openapi: () => import('./openapi.ts'),
};
