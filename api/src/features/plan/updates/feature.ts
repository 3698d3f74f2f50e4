import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { updateRoutes } from './routes.ts';

/** Plan (beta): project updates (status posts). */
export const planUpdates: Feature = {
  name: 'plan/updates',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, updateRoutes)],
  openapi: () => import('./openapi.ts'),
};
