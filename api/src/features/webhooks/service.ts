import type { Executor, Trx } from '../../db/connection.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { readJson, writeJson } from '../../lib/json.ts';
import { ValidationFailed, notFound } from '../../lib/errors.ts';
import type { PageRequest } from '../../lib/page.ts';
import type { Actor } from '../../auth/credentials.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import { refuseUrl } from '../../outbound/address-policy.ts';
import type { Resolver } from '../../outbound/address-policy.ts';
import { cancelPending, enqueueMany } from '../../outbox/deliveries.ts';
import { newSigningSecret } from '../../outbound/signing.ts';
import type { CreateSubscriptionInput, SampleInput } from './schema.ts';
import type { SubscriptionRow } from '../../db/tables.ts';
import { webhookDelivery } from './dispatch.ts';
import { enabledSubscriptions, matchesEvent } from './events.ts';

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
    await cancelPending(trx, { channel: 'webhook', refUuid: uuid }, 'subscription deleted', now);
  });
}

/** A 410 from the endpoint: the subscription stops, its pending deliveries are cancelled. */
export async function disableSubscription(trx: Trx, subscriptionUuid: string, now: Date): Promise<void> {
  await trx('webhook_subscriptions')
    .where({ uuid: subscriptionUuid })
    .whereNull('disabled_at')
    .update({ disabled_at: now.toISOString(), disabled_reason: 'The endpoint answered 410 Gone.', updated_at: now.toISOString() });
  await cancelPending(trx, { channel: 'webhook', refUuid: subscriptionUuid }, 'endpoint disabled after 410', now);
}

/** Redelivering is the admin saying the endpoint is back: a subscription disabled by a 410 is enabled again. */
export async function enableSubscription(db: Executor, organizationUuid: string, subscriptionUuid: string, now: Date): Promise<void> {
  await db('webhook_subscriptions')
    .where({ uuid: subscriptionUuid, organization_uuid: organizationUuid })
    .update({ disabled_at: null, disabled_reason: null, updated_at: now.toISOString() });
}

/**
 * Example bodies for POST /v1/webhook-subscription/sample/, shaped as the real events are (the payload builders
 * of check-ins, forms, kudos, users, teams and the Plan's change log), plus `sample: true`: a receiver written
 * against a sample reads real events the same way.
 */
export function sampleBody(event: string): Record<string, unknown> {
  const id = '00000000-0000-7000-8000-000000000000';
  const at = '2026-01-15T09:00:00.000Z';
  const user = { uuid: id, full_name: 'Sam Sample', email: 'sam@example.com' };
  const by = { uuid: id, full_name: 'Ada Admin' };
  if (event.startsWith('followups.')) {
    return {
      sample: true, uuid: id, id, followup: { uuid: id, id, name: 'Daily stand-up' }, is_anonymous: false, user, response_date: '2026-01-15',
      response_completed: true, has_issue: true, responses: [{ uuid: id, index: 0, question: 'What is blocking you?', response: 'Waiting for review' }], created_at: at, updated_at: at,
    };
  }
  if (event === 'checkin.prompted') {
    return { sample: true, uuid: id, followup: { uuid: id, id, name: 'Daily stand-up' }, user, response_date: '2026-01-15', prompted_at: at };
  }
  if (event.startsWith('checkin.blocker.')) {
    const resolved = event === 'checkin.blocker.resolved';
    return {
      sample: true, uuid: id, id, followup: { uuid: id, id, name: 'Daily stand-up' }, is_anonymous: false, user, question: { uuid: id, question: 'What is blocking you?' },
      text: 'Waiting for review', state: resolved ? 'resolved' : 'open', opened_on: '2026-01-13', opened_at: '2026-01-13T09:00:00.000Z',
      resolved_on: resolved ? '2026-01-15' : null, resolved_at: resolved ? at : null, days_open: 2,
    };
  }
  if (event === 'checkin.report.sent') {
    return {
      sample: true, uuid: id, followup: { uuid: id, id, name: 'Daily stand-up' }, report_date: '2026-01-15', one_by_one: false, destinations: ['slack:channel:C0123456'],
      answered: 4, not_finished: 0, missing: 1, away: 1, sent_at: at,
    };
  }
  if (event.startsWith('forms.')) {
    return { sample: true, uuid: id, id, response_uuid: id, form_uuid: id, form: { uuid: id, name: 'Feedback' }, is_anonymous: false, user, responses: [], current_state: null, created_at: at, updated_at: at };
  }
  if (event === 'kudos.posted') {
    const person = { uuid: id, full_name: 'Sam Sample' };
    return {
      sample: true, uuid: id, id, kudos_uuid: id, content: 'Thanks for the help!', is_anonymous: false, giver: { uuid: id, full_name: 'Ada Admin' }, receivers: [person],
      receiver_uuids: [id], teams: [], company_value: null, created_at: at,
    };
  }
  if (event.startsWith('organization.team_')) return { sample: true, team: { uuid: id, name: 'Core' }, user, by };
  if (event.startsWith('organization.')) return { sample: true, user, by };
  const task = {
    uuid: id, id, key: 'CORE-1', title: 'Sample task', description: '', board: id, state: id, owner: null, priority: null, estimate: null, start_date: null, due_date: null,
    labels: [], parent_task: null, milestone: null, version: 1, rank: 'a0', created_by: id, created_at: at, updated_at: at, completed_at: null, archived_at: null,
  };
  return {
    sample: true, object_uuid: id, board_uuid: id, project_uuid: null, changed_fields: [], actor: { uuid: id }, agent_name: null, task: event === 'tasks.deleted' ? null : task,
  };
}

export async function sendSample(db: Executor, actor: Actor, input: SampleInput, now: Date): Promise<string[]> {
  const query = enabledSubscriptions(db, [actor.organization.uuid]);
  if (input.hook_id) query.andWhere({ uuid: input.hook_id });
  const subs = await query;
  if (input.hook_id && subs.length === 0) throw notFound();
  const targets = input.hook_id ? subs : subs.filter((s) => matchesEvent(readJson<string[]>(s.subscriptions, []), input.event));
  const body = sampleBody(input.event);
  return enqueueMany(
    db,
    targets.map((sub) => ({ ...webhookDelivery(sub, input.event, now.toISOString(), body), kind: `${input.event} (sample)` })),
    now,
  );
}
