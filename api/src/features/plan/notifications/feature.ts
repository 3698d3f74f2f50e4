import type { Deps } from '../../../http/deps.ts';
import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { sendDueNotices } from './due.ts';
import { inboxRoutes, notificationCatalogRoutes } from './routes.ts';

/** Every minute: the due-date notices now due (each once per task, due date and kind). */
export async function runDueNotices(deps: Deps): Promise<number> {
  const sent = await sendDueNotices(deps.db, deps.clock.now());
  if (sent) deps.delivery.kick();
  return sent;
}

/** Plan (beta): the notification catalogue, the organization's routes, each person's inbox, and the due-date notices. */
export const planNotifications: Feature = {
  name: 'plan/notifications',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, notificationCatalogRoutes, inboxRoutes)],
  openapi: () => import('./openapi.ts'),
  jobs: [{ name: 'plan-due-notices', schedule: '* * * * *', run: runDueNotices }],
};
