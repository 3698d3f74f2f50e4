import type Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { agentReportRoutes } from './reports-routes.ts';
import { agentHealthRoutes } from './health-routes.ts';
import { agentMessageRoutes } from './messages-routes.ts';
import { agentEmailRoutes } from './email-routes.ts';
import { agentWebhookRoutes } from './webhook-routes.ts';
import { agentRegistrationRoutes } from './registration-routes.ts';

/** Every agent router (issue 6); each file stays one area of the spec's "Agent endpoints". */
export function agentRoutes(deps: Deps, mw: Middlewares): Router[] {
  return [
    agentReportRoutes(deps, mw),
    agentHealthRoutes(deps, mw),
    agentMessageRoutes(deps, mw),
    agentEmailRoutes(deps, mw),
    agentWebhookRoutes(deps, mw),
    agentRegistrationRoutes(deps, mw),
  ];
}
