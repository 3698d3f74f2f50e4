import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { channelRoutes } from './routes.ts';

/** Plan (beta): chat channels of the connected platform, where Plan notifications and reports go. */
export const planChannels: Feature = {
  name: 'plan/channels',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, channelRoutes)],
  openapi: () => import('./openapi.ts'),
};
