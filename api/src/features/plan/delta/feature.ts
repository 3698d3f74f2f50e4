import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { pruneChanges } from '../../../outbox/plan-changes.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { DELTA_WINDOW_MS } from './cursor.ts';
import { deltaRoutes } from './routes.ts';

/** Plan (beta): board snapshots and the delta feed; the change log keeps the feed's 7 days and no more. */
export const planDelta: Feature = {
  name: 'plan/delta',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, deltaRoutes)],
  openapi: () => import('./openapi.ts'),
  jobs: [{ name: 'prune-plan-changes', schedule: '43 * * * *', run: (deps) => pruneChanges(deps.db, new Date(deps.clock.now().getTime() - DELTA_WINDOW_MS)) }],
};
