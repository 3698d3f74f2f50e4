import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { commentRoutes } from './routes.ts';

/** Plan (beta): comments on tasks (replies, mentions); reactions/ and attachments/ serve their reactions and files. */
export const planComments: Feature = {
  name: 'plan/comments',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, commentRoutes)],
  openapi: () => import('./openapi.ts'),
};
