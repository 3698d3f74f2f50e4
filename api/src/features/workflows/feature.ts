import type { Deps } from '../../http/deps.ts';
import type { Feature } from '../../http/feature.ts';
import { workflowRoutes } from './routes.ts';
import { runScheduledWorkflows } from './scheduler.ts';
import { workflowHttpSender } from './sender.ts';

/** Every minute: schedule workflows whose cron expression matches the minute, in each workflow's time zone. */
export async function fireWorkflowSchedules(deps: Deps): Promise<number> {
  const started = await runScheduledWorkflows(deps.db, deps.clock.now());
  if (started) deps.delivery.kick();
  return started;
}

/** Workflows (CONTRACT §7): definitions, triggers and runs, the schedule job and the `http_request` delivery channel. */
export const workflows: Feature = {
  name: 'workflows',
  routers: (deps, mw) => [workflowRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
  delivery: (deps) => ({ senders: { http_request: workflowHttpSender(deps.secretBox, deps.outbound.http) } }),
  jobs: [{ name: 'workflow-schedules', schedule: '* * * * *', run: fireWorkflowSchedules }],
};
