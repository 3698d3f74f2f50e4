import type { Feature } from '../../http/feature.ts';
import { agentEmailRoutes } from './email-routes.ts';
import { agentInboxHandler } from './email-service.ts';
import { agentHealthRoutes } from './health-routes.ts';
import { agentMessageRoutes } from './messages-routes.ts';
import { agentRegistrationRoutes } from './registration-routes.ts';
import { agentReportRoutes } from './reports-routes.ts';
import { agentWebhookSender, markPushDelivered, removeGoneWebhook } from './webhook-delivery.ts';
import { agentWebhookRoutes } from './webhook-routes.ts';

/**
 * Agents (spec "Agent endpoints", CONTRACT §6): reports, health, messages, e-mail, webhooks, self-registration.
 * Owns the `agent_webhook` delivery channel and the inbound route of agent inboxes.
 */
export const agents: Feature = {
  name: 'agents',
  routers: (deps, mw) => [
    agentReportRoutes(deps, mw),
    agentHealthRoutes(deps, mw),
    agentMessageRoutes(deps, mw),
    agentEmailRoutes(deps, mw),
    agentWebhookRoutes(deps, mw),
    agentRegistrationRoutes(deps, mw),
  ],
  openapi: () => import('./openapi.ts'),
  delivery: (deps) => ({
    senders: { agent_webhook: agentWebhookSender(deps.secretBox, deps.outbound.http) },
    onDelivered: { agent_webhook: markPushDelivered },
    onGone: { agent_webhook: removeGoneWebhook },
  }),
  inbound: (deps) => ({
    // A reply to an agent's inbox becomes an agent message (`message_type: email`).
    'agent-inbox': agentInboxHandler({
      db: deps.db,
      logger: deps.logger,
      domain: () => deps.config.inboundEmailDomain,
      kick: () => deps.delivery.kick(),
      now: () => deps.clock.now(),
    }),
  }),
};
