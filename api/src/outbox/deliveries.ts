import type { Executor } from '../db/connection.ts';
import { uuidv7 } from '../lib/ids.ts';
import { writeJson } from '../lib/json.ts';
import type { SecretBox } from '../outbound/secret-box.ts';
import type { Channel } from '../db/tables.ts';

export interface NewDelivery {
  organizationUuid: string | null;
  channel: Channel;
  kind: string;
  /** Where it goes (address or URL); never a secret. */
  destination: string;
  payload: unknown;
  orderingKey?: string | null;
  refUuid?: string | null;
  subjectUuid?: string | null;
  secretEncrypted?: string | null;
  /** Standard Webhooks id; a fresh `msg_<uuid>` by default, kept across every retry. */
  webhookId?: string;
}

let lastMs = -1;
let counter = 0;
/**
 * UUIDv7 ids that sort in creation order within this process even inside one millisecond (RFC 9562 §6.2
 * method 1: a 12-bit counter in rand_a), so rows sharing an ordering key go out in the order they were written.
 */
export function deliveryUuid(now: Date): string {
  let ms = now.getTime();
  if (ms <= lastMs) {
    counter++;
    if (counter > 0xfff) {
      lastMs++;
      counter = 0;
    }
    ms = lastMs;
  } else {
    lastMs = ms;
    counter = 0;
  }
  const id = uuidv7(ms);
  return `${id.slice(0, 14)}7${counter.toString(16).padStart(3, '0')}${id.slice(18)}`;
}

/** Writes one outbox row. Call inside the transaction of the change that causes it. */
export async function enqueueDelivery(db: Executor, delivery: NewDelivery, now: Date): Promise<string> {
  const uuid = deliveryUuid(now);
  await db('deliveries').insert(deliveryRow(uuid, delivery, now));
  return uuid;
}

export function deliveryRow(uuid: string, d: NewDelivery, now: Date) {
  return {
    uuid,
    organization_uuid: d.organizationUuid,
    channel: d.channel,
    kind: d.kind,
    destination: d.destination,
    payload: writeJson(d.payload),
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: now.toISOString(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    webhook_id: d.webhookId ?? `msg_${uuid}`,
    ordering_key: d.orderingKey ?? null,
    ref_uuid: d.refUuid ?? null,
    subject_uuid: d.subjectUuid ?? null,
    secret_encrypted: d.secretEncrypted ?? null,
  };
}

export interface AgentWebhookDelivery {
  organizationUuid: string;
  agentName: string;
  /** The agent's registered https:// URL (checked at registration with `refuseUrl`, again at connect time). */
  url: string;
  /** The agent's webhook secret in clear: sent as X-Webhook-Secret and used for Standard Webhooks signing. */
  secret: string;
  /** The agent message as the API shows it (CONTRACT §6); `message.uuid` ties the delivery to it. */
  message: { uuid: string } & Record<string, unknown>;
}

/**
 * For the agents issue: POSTs `{event: "agent.message", message}` to the agent's webhook, with
 * X-Webhook-Secret and Standard Webhooks headers. Messages of one agent go out in order. Register
 * `deps.delivery.onDelivered('agent_webhook', (trx, row) => …)` to mark the message delivered; `row.subject_uuid`
 * is `message.uuid`. `onGone('agent_webhook', …)` is called when the endpoint answers 410 (disable it).
 */
export async function enqueueAgentWebhook(db: Executor, box: SecretBox, params: AgentWebhookDelivery, now: Date): Promise<string> {
  return enqueueDelivery(
    db,
    {
      organizationUuid: params.organizationUuid,
      channel: 'agent_webhook',
      kind: 'agent.message',
      destination: params.url,
      payload: { event: 'agent.message', message: params.message },
      orderingKey: `agent:${params.organizationUuid}:${params.agentName}`,
      subjectUuid: params.message.uuid,
      secretEncrypted: box.encrypt(params.secret),
    },
    now,
  );
}
