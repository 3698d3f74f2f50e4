import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { reactionRoutes } from './routes.ts';

/** Plan (beta): emoji reactions on project updates and comments. */
export const planReactions: Feature = {
  name: 'plan/reactions',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, reactionRoutes)],
  openapi: () => import('./openapi.ts'),
};
