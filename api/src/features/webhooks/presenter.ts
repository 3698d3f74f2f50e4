import { bool, readJson } from '../../lib/json.ts';
import { iso } from '../../lib/time.ts';
import type { SubscriptionRow } from '../../db/tables.ts';

/** CONTRACT §7 `{hook_id, id, hook_url, name, subscriptions, created_at}`, plus filters and state; secrets never. */
export function presentSubscription(row: SubscriptionRow, signingSecret: string | null = null) {
  const body = {
    hook_id: row.uuid,
    id: row.uuid,
    uuid: row.uuid,
    hook_url: row.hook_url,
    name: row.name,
    subscriptions: readJson<string[]>(row.subscriptions, []),
    subscribed_objects: readJson<string[]>(row.subscribed_objects, []),
    has_bearer: row.bearer_encrypted !== null,
    active: row.disabled_at === null,
    disabled_at: iso(row.disabled_at),
    disabled_reason: row.disabled_reason,
    created_at: iso(row.created_at),
  };
  // A secret Rollcall generated is shown once, in the create answer, so the receiver can verify signatures.
  return signingSecret && bool(row.secret_generated) ? { ...body, signing_secret: signingSecret } : body;
}

export const presentSubscriptionDeleted = (hookId: string) => ({ detail: 'Webhook subscription deleted.', hook_id: hookId });

/** POST /v1/webhook-subscription/sample/: one delivery per subscription the sample went to. */
export function presentSampleQueued(event: string, deliveries: string[]) {
  return { detail: `Sample ${event} queued for ${deliveries.length} subscription(s).`, event, queued: deliveries.length, deliveries };
}
