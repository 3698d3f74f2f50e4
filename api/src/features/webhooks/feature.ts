import type { Deps } from '../../http/deps.ts';
import type { Feature } from '../../http/feature.ts';
import { pruneDispatchedEvents } from '../../outbox/events.ts';
import { dispatchEvents } from './dispatch.ts';
import { webhookRoutes } from './routes.ts';
import { organizationWebhookSender } from './sender.ts';
import { disableSubscription } from './service.ts';

/** Hourly: events dispatched more than DISPATCHED_EVENT_RETENTION_DAYS ago (the deliveries keep their own copy). */
export function pruneOrganizationEvents(deps: Deps): Promise<number> {
  return pruneDispatchedEvents(deps.db, deps.clock.now());
}

/** Organization webhooks (CONTRACT §7): subscriptions, the event dispatcher and the `webhook` delivery channel. */
export const webhooks: Feature = {
  name: 'webhooks',
  routers: (deps, mw) => [webhookRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
  delivery: (deps) => ({
    senders: { webhook: organizationWebhookSender(deps.db, deps.secretBox, deps.outbound.http) },
    onGone: { webhook: async (trx, row, now) => (row.ref_uuid ? disableSubscription(trx, row.ref_uuid, now) : undefined) },
    beforeRound: [() => dispatchEvents(deps.db, deps.clock.now())],
  }),
  jobs: [{ name: 'prune-organization-events', schedule: '17 * * * *', run: pruneOrganizationEvents }],
};
