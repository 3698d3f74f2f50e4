import type { Deps } from '../../../http/deps.ts';
import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { reportRoutes } from './routes.ts';
import { runDueReports } from './service.ts';

/** Every minute: the scheduled reports now due, each sent once. */
export async function sendDueReports(deps: Deps): Promise<number> {
  const sent = await runDueReports(deps.db, deps.clock.now());
  if (sent) deps.delivery.kick();
  return sent;
}

/** Plan (beta): scheduled reports (what was done, what is in progress, what is blocked), sent to chat or e-mail. */
export const planReports: Feature = {
  name: 'plan/reports',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, reportRoutes)],
  openapi: () => import('./openapi.ts'),
  jobs: [{ name: 'plan-scheduled-reports', schedule: '* * * * *', run: sendDueReports }],
};
