import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { favoriteRoutes } from './routes.ts';

/** Plan (beta): each person's favorite tasks, boards and projects. */
export const planFavorites: Feature = {
  name: 'plan/favorites',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, favoriteRoutes)],
  openapi: () => import('./openapi.ts'),
};
