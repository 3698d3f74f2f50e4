import type { Executor } from '../../db/connection.ts';
import type { SubscriptionRow } from '../../db/tables.ts';
import { readJson } from '../../lib/json.ts';
import { eventPayload, recordEvent as recordWantedEvent } from '../../outbox/events.ts';
import type { NewEvent } from '../../outbox/events.ts';
import { startEventRuns } from '../workflows/events.ts';

/** Whether a subscription's event list (names, or `prefix.*` wildcards) covers `event`. */
export const matchesEvent = (patterns: string[], event: string) =>
  patterns.some((p) => p === event || (p.endsWith('.*') && event.startsWith(p.slice(0, -1))));

export const enabledSubscriptions = (db: Executor, organizationUuids: string[]) =>
  db('webhook_subscriptions').whereIn('organization_uuid', organizationUuids).whereNull('disabled_at');

/** Whether an enabled subscription of the organization wants `event` (one receives the events after its creation). */
export async function isEventWanted(db: Executor, organizationUuid: string, event: string): Promise<boolean> {
  const rows: Pick<SubscriptionRow, 'subscriptions'>[] = await enabledSubscriptions(db, [organizationUuid]).select('subscriptions');
  return rows.some((row) => matchesEvent(readJson<string[]>(row.subscriptions, []), event));
}

/**
 * Records an organization event (CONTRACT §7) in the caller's transaction, when a webhook subscription of the
 * organization wants it, and starts the runs of the event workflows listening for it in the same transaction:
 * every feature that emits events calls this. Returns the event's uuid, or null when no webhook wanted it.
 */
export async function recordEvent(db: Executor, event: NewEvent, now: Date): Promise<string | null> {
  const payload = eventPayload(event);
  await startEventRuns(db, event.organizationUuid, event.event, payload, now);
  return recordWantedEvent(db, { ...event, payload }, now, isEventWanted);
}
