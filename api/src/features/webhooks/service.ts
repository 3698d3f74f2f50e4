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
  const subs = await query;
  if (input.hook_id && subs.length === 0) throw notFound();
  const targets = input.hook_id ? subs : subs.filter((s) => matchesEvent(readJson<string[]>(s.subscriptions, []), input.event));
  const body = sampleBody(input.event, actor.organization.uuid);
  return enqueueMany(
    db,
    targets.map((sub) => ({ ...webhookDelivery(sub, input.event, now.toISOString(), body), kind: `${input.event} (sample)` })),
    now,
  );
}
