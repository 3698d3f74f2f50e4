import type { Executor } from '../../db/connection.ts';
import type { SubscriptionRow } from '../../db/tables.ts';
import { organizationConfig } from '../../db/organization-config.ts';
import type { OrganizationConfig } from '../../db/organization-config.ts';
import { readJson } from '../../lib/json.ts';
import { eventPayload, recordEvent as recordWantedEvent } from '../../outbox/events.ts';
import type { EventReceivers, NewEvent } from '../../outbox/events.ts';
import { isEventListened, startEventRuns } from '../workflows/events.ts';

/** Whether a subscription's event list (names, or `prefix.*` wildcards) covers `event`. */
export const matchesEvent = (patterns: string[], event: string) =>
  patterns.some((p) => p === event || (p.endsWith('.*') && event.startsWith(p.slice(0, -1))));

export const enabledSubscriptions = (db: Executor, organizationUuids: string[]) =>
  db('webhook_subscriptions').whereIn('organization_uuid', organizationUuids).whereNull('disabled_at');

/**
 * Whether an enabled subscription of the organization wants `event` (one receives the events after its creation).
 * The event lists are kept under the organization's settings version (db/organization-config.ts).
 */
export async function isEventWanted(db: Executor, organizationUuid: string, event: string, config?: OrganizationConfig): Promise<boolean> {
  const lists = await (config ?? (await organizationConfig(db, organizationUuid))).part('webhooks:events', async () => {
    const rows: Pick<SubscriptionRow, 'subscriptions'>[] = await enabledSubscriptions(db, [organizationUuid]).select('subscriptions');
    return rows.map((row) => readJson<string[]>(row.subscriptions, []));
  });
  return lists.some((patterns) => matchesEvent(patterns, event));
}

/**
 * Records an organization event (CONTRACT §7) in the caller's transaction: the one way an event reaches its
 * receivers. It starts the runs of the event workflows listening for it and stores it for the webhook dispatcher
 * when a subscription wants it. Every feature that emits events calls this; the Plan's change log reaches it
 * through ORGANIZATION_EVENTS. Returns the stored event's uuid, or null when no webhook wanted it.
 */
export async function recordEvent(db: Executor, event: NewEvent, now: Date, config?: OrganizationConfig): Promise<string | null> {
  const payload = eventPayload(event);
  const receivers = config ?? (await organizationConfig(db, event.organizationUuid));
  await startEventRuns(db, event.organizationUuid, event.event, payload, now, receivers);
  return recordWantedEvent(db, { ...event, payload }, now, (trx, organizationUuid, name) => isEventWanted(trx, organizationUuid, name, receivers));
}

/** The same receivers for code below the features (the Plan's change log in outbox/): webhooks and workflows. */
export const ORGANIZATION_EVENTS: EventReceivers = {
  wanted: async (db, organizationUuid, event) => {
    const config = await organizationConfig(db, organizationUuid);
    return (await isEventWanted(db, organizationUuid, event, config)) || isEventListened(db, organizationUuid, event, config);
  },
  record: async (db, event, now) => void (await recordEvent(db, event, now)),
};
