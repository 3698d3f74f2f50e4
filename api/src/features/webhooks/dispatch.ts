import type { Db } from '../../db/connection.ts';
import { isSqlite } from '../../db/connection.ts';
import type { SubscriptionRow } from '../../db/tables.ts';
import { readJson } from '../../lib/json.ts';
import { enqueueMany } from '../../outbox/deliveries.ts';
import type { NewDelivery } from '../../outbox/deliveries.ts';
import { markDispatched, withoutAnonymousPeople } from '../../outbox/events.ts';
export { withoutAnonymousPeople };
import { enabledSubscriptions, matchesEvent } from './events.ts';

type Payload = Record<string, unknown>;
const uuidOf = (value: unknown): unknown => (value !== null && typeof value === 'object' ? (value as Payload).uuid : undefined);
const uuidsOf = (value: unknown): unknown[] => (Array.isArray(value) ? value.map(uuidOf) : []);

/**
 * The objects each event is about, for `subscribed_objects`, read from the payloads as the emitting features
 * build them: check-in responses (`responseEventPayload`), form responses (forms/responses-service.ts), kudos
 * (`kudosEventPayload`), people and team membership (users, invitations, teams) and Plan tasks (the change log,
 * outbox/plan-changes.ts). The response, kudos or task itself is always one; people only as far as the payload
 * names them (an anonymous one names nobody).
 */
const OBJECTS_BY_PREFIX: [prefix: string, objects: (payload: Payload) => unknown[]][] = [
  ['followups.response.', (p) => [p.uuid, uuidOf(p.followup), uuidOf(p.user)]],
  ['forms.response.', (p) => [p.uuid, p.form_uuid, uuidOf(p.user)]],
  ['kudos.', (p) => [p.uuid, uuidOf(p.giver), ...uuidsOf(p.receivers), ...uuidsOf(p.teams), (p.company_value as Payload | null)?.id]],
  ['organization.', (p) => [uuidOf(p.user), uuidOf(p.team)]],
  ['tasks.', (p) => [p.object_uuid, p.board_uuid, p.project_uuid, uuidOf(p.task)]],
];

/** The uuids of the objects `event` is about (its payload as subscribers receive it). */
export function eventObjects(event: string, payload: Payload): string[] {
  const objects = OBJECTS_BY_PREFIX.find(([prefix]) => event.startsWith(prefix))?.[1](payload) ?? [];
  return [...new Set(objects.filter((v): v is string => typeof v === 'string'))];
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
      // Objects come from the body subscribers get: an anonymous response or kudos is never matched by its author.
      const body = withoutAnonymousPeople(readJson<Payload>(payloads.get(event.uuid) ?? '{}', {})) as Payload;
      const objects = eventObjects(event.event, body);
      for (const sub of matching) {
        if (sub.objects.length > 0 && !objects.some((o) => sub.objects.includes(o))) continue;
        deliveries.push(webhookDelivery(sub.row, event.event, event.created_at, body));
      }
    }
    await enqueueMany(trx, deliveries, now);
    await markDispatched(trx, events.map((e) => e.uuid), now);
    return events.length;
  });
}
