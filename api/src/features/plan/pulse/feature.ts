import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { pulseRoutes } from './routes.ts';

/** Plan (beta): the pulse, counts per state and owner over a period. */
export const planPulse: Feature = {
  name: 'plan/pulse',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, pulseRoutes)],
  openapi: () => import('./openapi.ts'),
};
