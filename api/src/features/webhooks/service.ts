import type { Executor, Trx } from '../../db/connection.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { readJson, writeJson } from '../../lib/json.ts';
import { ValidationFailed, notFound } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Actor } from '../../auth/credentials.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import { refuseUrl } from '../../outbound/address-policy.ts';
import type { Resolver } from '../../outbound/address-policy.ts';
import { deliveryRow, deliveryUuid } from '../../outbox/deliveries.ts';
import type { NewDelivery } from '../../outbox/deliveries.ts';
import { newSigningSecret } from '../../outbound/signing.ts';
import type { CreateSubscriptionInput, SampleInput } from './schema.ts';
import type { SubscriptionRow } from '../../db/tables.ts';

export interface UrlPolicy {
  allowPrivate: boolean;
  resolve?: Resolver;
}

export async function createSubscription(
  db: Executor,
  box: SecretBox,
  policy: UrlPolicy,
  actor: Actor,
  input: CreateSubscriptionInput,
  now: Date,
): Promise<{ row: SubscriptionRow; signingSecret: string | null }> {
  const refusal = await refuseUrl(input.hook_url, policy);
  if (refusal) throw new ValidationFailed({ hook_url: [refusal] });
  const generated = input.secret ? null : newSigningSecret();
  const row: SubscriptionRow = {
    uuid: uuidv7(now.getTime()),
    organization_uuid: actor.organization.uuid,
    created_by_uuid: actor.user.uuid,
    hook_url: input.hook_url,
    name: input.name ?? new URL(input.hook_url).hostname,
    subscriptions: writeJson([...new Set(input.subscriptions)]),
    subscribed_objects: writeJson(input.subscribed_objects ?? []),
    secret_encrypted: box.encrypt(input.secret ?? generated!),
    secret_generated: generated !== null,
    bearer_encrypted: input.bearer ? box.encrypt(input.bearer) : null,
    disabled_at: null,
    disabled_reason: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await db('webhook_subscriptions').insert(row);
  return { row, signingSecret: generated };
}

export async function listSubscriptions(db: Executor, actor: Actor, page: PageRequest): Promise<{ count: number; rows: SubscriptionRow[] }> {
  const base = () => db('webhook_subscriptions').where({ organization_uuid: actor.organization.uuid });
  const [{ count }] = await base().count({ count: '*' });
  const rows = await base().select().orderBy('uuid', 'desc').limit(page.limit).offset(page.offset);
  return { count: Number(count), rows };
}

export async function deleteSubscription(db: Executor, actor: Actor, uuid: string, now: Date): Promise<void> {
  await db.transaction(async (trx) => {
    const deleted = await trx('webhook_subscriptions').where({ uuid, organization_uuid: actor.organization.uuid }).delete();
    if (!deleted) throw notFound();
    await cancelPending(trx, uuid, 'subscription deleted', now);
  });
}

async function cancelPending(trx: Executor, subscriptionUuid: string, reason: string, now: Date): Promise<void> {
  await trx('deliveries')
    .where({ ref_uuid: subscriptionUuid, status: 'pending', channel: 'webhook' })
    .update({ status: 'cancelled', last_error: reason, updated_at: now.toISOString() });
}

/** A 410 from the endpoint: the subscription stops, its pending deliveries are cancelled. */
export async function disableSubscription(trx: Trx, subscriptionUuid: string, now: Date): Promise<void> {
  await trx('webhook_subscriptions')
    .where({ uuid: subscriptionUuid })
    .whereNull('disabled_at')
    .update({ disabled_at: now.toISOString(), disabled_reason: 'The endpoint answered 410 Gone.', updated_at: now.toISOString() });
  await cancelPending(trx, subscriptionUuid, 'endpoint disabled after 410', now);
}

/** Whether a subscription's event list (names, or `prefix.*` wildcards) covers `event`. */
const matchesEvent = (patterns: string[], event: string) =>
  patterns.some((p) => p === event || (p.endsWith('.*') && event.startsWith(p.slice(0, -1))));

const enabledSubscriptions = (db: Executor, organizationUuids: string[]) =>
  db('webhook_subscriptions').whereIn('organization_uuid', organizationUuids).whereNull('disabled_at');

/**
 * Whether an enabled subscription of the organization wants `event`: recordEvent stores only those events
 * (a subscription receives the events that happen after it was created).
 */
export async function isEventWanted(db: Executor, organizationUuid: string, event: string): Promise<boolean> {
  const rows: Pick<SubscriptionRow, 'subscriptions'>[] = await enabledSubscriptions(db, [organizationUuid]).select('subscriptions');
  return rows.some((row) => matchesEvent(readJson<string[]>(row.subscriptions, []), event));
}

/** The object an event is about, for `subscribed_objects` filtering. */
function eventObjects(payload: Record<string, unknown>): string[] {
  const keys = ['object_uuid', 'followup_uuid', 'checkin_uuid', 'form_uuid', 'team_uuid', 'board_uuid', 'project_uuid', 'task_uuid', 'user_uuid'];
  return keys.map((k) => payload[k]).filter((v): v is string => typeof v === 'string');
}

const PERSONAL_KEYS = ['user', 'user_uuid', 'respondent', 'respondent_uuid', 'giver', 'giver_uuid', 'author', 'author_uuid', 'email'];

/** Privacy (issue 5): an anonymous response's event carries no user, at any depth. */
export function withoutAnonymousPeople(value: unknown, anonymous = false): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutAnonymousPeople(v, anonymous));
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const hidden = anonymous || object.is_anonymous === true;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(object)) {
    if (hidden && PERSONAL_KEYS.includes(key)) continue;
    out[key] = withoutAnonymousPeople(v, hidden);
  }
  return out;
}

export function envelope(sub: Pick<SubscriptionRow, 'uuid' | 'name'>, event: string, eventTimestamp: string, body: unknown) {
  return { event, event_timestamp: eventTimestamp, hook: { id: sub.uuid, name: sub.name }, body };
}

function webhookDelivery(sub: SubscriptionRow, event: string, eventTimestamp: string, body: unknown): NewDelivery {
  return {
    organizationUuid: sub.organization_uuid,
    channel: 'webhook',
    kind: event,
    destination: sub.hook_url,
    payload: envelope(sub, event, eventTimestamp, body),
    refUuid: sub.uuid,
  };
}

async function insertDeliveries(trx: Executor, deliveries: NewDelivery[], now: Date): Promise<string[]> {
  const rows = deliveries.map((d) => deliveryRow(deliveryUuid(now), d, now));
  for (let i = 0; i < rows.length; i += 40) await trx('deliveries').insert(rows.slice(i, i + 40));
  return rows.map((r) => r.uuid);
}

/**
 * The event dispatcher: turns undispatched organization events (written by recordEvent in the same
 * transaction as their cause) into one webhook delivery per matching, enabled subscription, and marks the
 * events dispatched in the same transaction. Returns the number of events handled.
 */
export async function dispatchEvents(db: Executor, now: Date, batch = 200): Promise<number> {
  // Payloads are read only for events some subscription wants: a payload can be large (a whole check-in
  // response), and most organizations subscribe to few events or none, so most batches only get marked.
  const events: { uuid: string; organization_uuid: string; event: string; created_at: string }[] = await db('organization_events')
    .whereNull('dispatched_at')
    .orderBy('created_at') // the (dispatched_at, created_at) index gives this order; a backlog is never sorted whole
    .orderBy('uuid')
    .limit(batch)
    .select('uuid', 'organization_uuid', 'event', 'created_at');
  if (events.length === 0) return 0;
  await db.transaction(async (trx) => {
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
      const rows: { uuid: string; payload: string }[] = await trx('organization_events').whereIn('uuid', wanted.slice(i, i + 50).map((w) => w.event.uuid)).select('uuid', 'payload');
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
    await insertDeliveries(trx, deliveries, now);
    const ids = events.map((e) => e.uuid);
    for (let i = 0; i < ids.length; i += 50) {
      await trx('organization_events').whereIn('uuid', ids.slice(i, i + 50)).update({ dispatched_at: now.toISOString() });
    }
  });
  return events.length;
}

/** Dispatched events older than this are deleted by the hourly maintenance job; deliveries keep their own copy. */
export const DISPATCHED_EVENT_RETENTION_DAYS = 7;

export async function pruneDispatchedEvents(db: Executor, now: Date): Promise<number> {
  const before = new Date(now.getTime() - DISPATCHED_EVENT_RETENTION_DAYS * 86_400_000).toISOString();
  return db('organization_events').where('dispatched_at', '<', before).delete();
}

/** Example bodies for POST /v1/webhook-subscription/sample/. */
export function sampleBody(event: string, organizationUuid: string): Record<string, unknown> {
  const id = '00000000-0000-7000-8000-000000000000';
  const user = { uuid: id, full_name: 'Sam Sample', email: 'sam@example.com' };
  if (event.startsWith('followups.')) {
    return { sample: true, followup_uuid: id, followup_name: 'Daily stand-up', response_uuid: id, response_date: '2026-01-15', user, has_issue: true, is_anonymous: false, responses: [{ index: 0, question: 'What is blocking you?', response: 'Waiting for review' }] };
  }
  if (event.startsWith('forms.')) return { sample: true, form_uuid: id, form_name: 'Feedback', response_uuid: id, user, responses: [] };
  if (event === 'kudos.posted') return { sample: true, kudos_uuid: id, content: 'Thanks for the help!', giver: user, receivers: [user], company_value: null, is_anonymous: false };
  if (event.startsWith('organization.')) return { sample: true, organization_uuid: organizationUuid, user, team: { uuid: id, name: 'Core' } };
  return { sample: true, task: { uuid: id, key: 'CORE-1', title: 'Sample task' } };
}

export async function sendSample(db: Executor, actor: Actor, input: SampleInput, now: Date): Promise<string[]> {
  const query = enabledSubscriptions(db, [actor.organization.uuid]);
  if (input.hook_id) query.andWhere({ uuid: input.hook_id });
  const subs: SubscriptionRow[] = await query;
  if (input.hook_id && subs.length === 0) throw notFound();
  const targets = input.hook_id ? subs : subs.filter((s) => matchesEvent(readJson<string[]>(s.subscriptions, []), input.event));
  const body = sampleBody(input.event, actor.organization.uuid);
  return insertDeliveries(
    db,
    targets.map((sub) => ({ ...webhookDelivery(sub, input.event, now.toISOString(), body), kind: `${input.event} (sample)` })),
    now,
  );
}
