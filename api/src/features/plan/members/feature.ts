import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { memberRoutes } from './routes.ts';

/** Plan (beta): members and mentionables of boards and projects. */
export const planMembers: Feature = {
  name: 'plan/members',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, memberRoutes)],
  openapi: () => import('./openapi.ts'),
};
