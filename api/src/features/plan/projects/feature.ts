import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { projectRoutes } from './routes.ts';

/** Plan (beta): projects. */
export const planProjects: Feature = {
  name: 'plan/projects',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, projectRoutes)],
  openapi: () => import('./openapi.ts'),
};
