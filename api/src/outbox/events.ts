import type { Executor } from '../db/connection.ts';
import { uuidv7 } from '../lib/ids.ts';
import { writeJson } from '../lib/json.ts';

/**
 * Organization events (CONTRACT §7): the only module that writes `organization_events` rows. The webhook
 * dispatcher turns each into deliveries for the subscriptions that want it (features/webhooks/dispatch.ts).
 */
export interface NewEvent {
  organizationUuid: string;
  event: string;
  /** The payload, or how to build it: built only when someone receives the event (it can be a whole day's answer). */
  payload: Record<string, unknown> | (() => Promise<Record<string, unknown>>);
}

/** The event's payload, built at most once however many receivers ask for it. */
export function eventPayload(event: NewEvent): () => Promise<Record<string, unknown>> {
  const given = event.payload;
  if (typeof given !== 'function') return () => Promise.resolve(given);
  let built: Promise<Record<string, unknown>> | undefined;
  return () => (built ??= given());
}

/** Whether anyone will receive `event` from this organization: the webhooks feature answers it. */
export type EventWanted = (db: Executor, organizationUuid: string, event: string) => Promise<boolean>;

/**
 * Everything that receives an organization's events (webhook subscriptions, event-triggered workflows), as the
 * features hand it down to code below them (outbox/ imports no feature): the Plan's change log records its
 * `tasks.*` events through it, as every feature does through features/webhooks/events.ts.
 */
export interface EventReceivers {
  /** Whether any receiver of the organization takes `event` (cheap; the change log asks once per name per write). */
  wanted: EventWanted;
  /** Hands the event to every receiver that takes it, in the transaction of its cause. */
  record(db: Executor, event: NewEvent, now: Date): Promise<void>;
}

/**
 * Records an event in the transaction of its cause, only when `wanted` says someone will receive it: events
 * exist for webhooks alone, most organizations subscribe to few events or none, and a payload can be a whole
 * day's check-in response. Returns the event's uuid, or null when nobody wanted it.
 */
export async function recordEvent(db: Executor, event: NewEvent, now: Date, wanted: EventWanted): Promise<string | null> {
  if (!(await wanted(db, event.organizationUuid, event.event))) return null;
  const uuid = uuidv7(now.getTime());
  await db('organization_events').insert({
    uuid,
    organization_uuid: event.organizationUuid,
    event: event.event,
    payload: writeJson(await eventPayload(event)()),
    created_at: now.toISOString(),
    dispatched_at: null,
  });
  return uuid;
}

/** Marks events handed to the dispatcher (50 per statement). */
export async function markDispatched(db: Executor, uuids: string[], now: Date): Promise<void> {
  for (let i = 0; i < uuids.length; i += 50) {
    await db('organization_events').whereIn('uuid', uuids.slice(i, i + 50)).update({ dispatched_at: now.toISOString() });
  }
}

/** Dispatched events older than this are deleted by the hourly maintenance job; deliveries keep their own copy. */
export const DISPATCHED_EVENT_RETENTION_DAYS = 7;

export async function pruneDispatchedEvents(db: Executor, now: Date): Promise<number> {
  const before = new Date(now.getTime() - DISPATCHED_EVENT_RETENTION_DAYS * 86_400_000).toISOString();
  return db('organization_events').where('dispatched_at', '<', before).delete();
}

/** CONTRACT §7 event names; `tasks.*` (Plan) accepts any `tasks.<name>` and the wildcard itself. */
export const EVENTS = [
  'followups.response.completed',
  'followups.response.updated',
  'followups.response.deleted',
  'checkin.prompted',
  'checkin.report.sent',
  'checkin.blocker.reported',
  'checkin.blocker.resolved',
  'forms.response.created',
  'forms.response.updated',
  'forms.response.deleted',
  'kudos.posted',
  'organization.user_activated',
  'organization.user_deactivated',
  'organization.team_user_added',
  'organization.team_user_removed',
] as const;
const TASK_EVENT = /^tasks\.(\*|[a-z_]+(\.[a-z_]+)*)$/;
export const isKnownEvent = (name: string) => (EVENTS as readonly string[]).includes(name) || TASK_EVENT.test(name);

const PERSONAL_KEYS = ['user', 'user_uuid', 'respondent', 'respondent_uuid', 'giver', 'giver_uuid', 'author', 'author_uuid', 'email'];

/** Privacy: an anonymous response's, form's or kudos' event carries no person, at any depth (webhooks and workflows alike). */
export function withoutAnonymousPeople(value: unknown, anonymous = false): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutAnonymousPeople(v, anonymous));
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const hidden = anonymous || object.is_anonymous === true;
  // fromEntries defines each key as its own: `out[key] = …` with a `__proto__` key from an answer would set a prototype.
  return Object.fromEntries(
    Object.entries(object)
      .filter(([key]) => !(hidden && PERSONAL_KEYS.includes(key)))
      .map(([key, v]) => [key, withoutAnonymousPeople(v, hidden)]),
  );
}
