import type { Db } from '../../db/connection.ts';
import { isSqlite } from '../../db/connection.ts';
import type { SubscriptionRow } from '../../db/tables.ts';
import { readJson } from '../../lib/json.ts';
import { enqueueMany } from '../../outbox/deliveries.ts';
import type { NewDelivery } from '../../outbox/deliveries.ts';
import { markDispatched, withoutAnonymousPeople } from '../../outbox/events.ts';
export { withoutAnonymousPeople };
import { enabledSubscriptions, matchesEvent } from './events.ts';

/** The object an event is about, for `subscribed_objects` filtering. */
function eventObjects(payload: Record<string, unknown>): string[] {
  const keys = ['object_uuid', 'followup_uuid', 'checkin_uuid', 'form_uuid', 'team_uuid', 'board_uuid', 'project_uuid', 'task_uuid', 'user_uuid'];
  return keys.map((k) => payload[k]).filter((v): v is string => typeof v === 'string');
}

/** CONTRACT §7: what a subscription receives, `{event, event_timestamp, hook: {id, name}, body}`. */
export function webhookDelivery(sub: SubscriptionRow, event: string, eventTimestamp: string, body: unknown): NewDelivery {
  return {
    organizationUuid: sub.organization_uuid,
    channel: 'webhook',
    kind: event,
    destination: sub.hook_url,
    payload: { event, event_timestamp: eventTimestamp, hook: { id: sub.uuid, name: sub.name }, body },
    refUuid: sub.uuid,
  };
}

/**
 * The event dispatcher (run before each delivery round): turns undispatched organization events into one
 * webhook delivery per matching, enabled subscription, and marks the events dispatched in the same
 * transaction. Returns the number of events handled. With several processes (PostgreSQL), each takes its batch
 * under row locks and skips the events another is dispatching, so every event is dispatched once.
 */
export async function dispatchEvents(db: Db, now: Date, batch = 200): Promise<number> {
  // Most rounds find nothing: ask without opening a transaction first.
  if (!(await db('organization_events').whereNull('dispatched_at').first('uuid'))) return 0;
  return db.transaction(async (trx) => {
    // Payloads are read only for events some subscription wants: a payload can be large (a whole check-in
    // response), and most organizations subscribe to few events or none, so most batches only get marked.
    const query = trx('organization_events')
      .whereNull('dispatched_at')
      .orderBy('created_at') // the (dispatched_at, created_at) index gives this order; a backlog is never sorted whole
      .orderBy('uuid')
      .limit(batch)
      .select('uuid', 'organization_uuid', 'event', 'created_at');
    const events: { uuid: string; organization_uuid: string; event: string; created_at: string }[] = await (isSqlite(db) ? query : query.forUpdate().skipLocked());
    if (events.length === 0) return 0;
    const orgs = [...new Set(events.map((e) => e.organization_uuid))];
    const subs = (await enabledSubscriptions(trx, orgs)).map((sub) => ({
      row: sub,
      events: readJson<string[]>(sub.subscriptions, []),
      objects: readJson<string[]>(sub.subscribed_objects, []),
    }));
    const wanted = events
      .map((event) => ({ event, subs: subs.filter((sub) => sub.row.organization_uuid === event.organization_uuid && matchesEvent(sub.events, event.event)) }))
      .filter((w) => w.subs.length > 0);
    const payloads = new Map<string, string>();
    for (let i = 0; i < wanted.length; i += 50) {
      const rows = await trx('organization_events').whereIn('uuid', wanted.slice(i, i + 50).map((w) => w.event.uuid)).select('uuid', 'payload');
      for (const row of rows) payloads.set(row.uuid, row.payload);
    }
    const deliveries: NewDelivery[] = [];
    for (const { event, subs: matching } of wanted) {
      const payload = readJson<Record<string, unknown>>(payloads.get(event.uuid) ?? '{}', {});
      const objects = eventObjects(payload);
      for (const sub of matching) {
        if (sub.objects.length > 0 && !objects.some((o) => sub.objects.includes(o))) continue;
        deliveries.push(webhookDelivery(sub.row, event.event, event.created_at, withoutAnonymousPeople(payload)));
      }
    }
    await enqueueMany(trx, deliveries, now);
    await markDispatched(trx, events.map((e) => e.uuid), now);
    return events.length;
  });
}
