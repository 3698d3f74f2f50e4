import type { Executor, Trx } from '../../db/connection.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import type { DeliveryRow } from '../../db/tables.ts';
import { postJson } from '../../outbound/http-sender.ts';
import type { OutboundHttp } from '../../outbound/outbound-http.ts';
import { standardWebhookHeaders } from '../../outbound/signing.ts';
import type { SendResult } from '../../outbound/types.ts';
import { enqueue } from '../../outbox/deliveries.ts';

export interface AgentWebhookDelivery {
  organizationUuid: string;
  agentName: string;
  /** The agent's registered https:// URL (checked at registration with `refuseUrl`, again at connect time). */
  url: string;
  /**
   * The agent's webhook secret as stored (sealed): copied to the delivery as it is, and opened only by the sender.
   * The request that writes a message never decrypts, so a secret this instance cannot open fails its delivery
   * (with the reason) instead of the request.
   */
  sealedSecret: string;
  /** The agent message as the API shows it (CONTRACT §6); `message.uuid` ties the delivery to it. */
  message: { uuid: string } & Record<string, unknown>;
}

/** Messages of one agent go out one at a time, in order; cancelling an agent's pushes selects by this key. */
export const agentOrderingKey = (organizationUuid: string, agentName: string) => `agent:${organizationUuid}:${agentName}`;

/**
 * Queues the push of an agent message: `{event: "agent.message", message}` to the agent's webhook, with
 * X-Webhook-Secret and Standard Webhooks headers (the agents feature's `agent_webhook` sender). `subject_uuid`
 * is the message's uuid: a 2xx marks it delivered, a 410 removes the webhook (the feature's delivery hooks).
 */
export async function enqueueAgentWebhook(db: Executor, params: AgentWebhookDelivery, now: Date): Promise<string> {
  return enqueue(
    db,
    {
      organizationUuid: params.organizationUuid,
      channel: 'agent_webhook',
      kind: 'agent.message',
      destination: params.url,
      payload: { event: 'agent.message', message: params.message },
      orderingKey: agentOrderingKey(params.organizationUuid, params.agentName),
      subjectUuid: params.message.uuid,
      secretEncrypted: params.sealedSecret,
    },
    now,
  );
}

/** Agent webhooks (spec "Webhook secrets"): X-Webhook-Secret plus Standard Webhooks signing with the same secret. */
export function agentWebhookSender(box: SecretBox, http: OutboundHttp) {
  return async function sendAgentWebhook(row: DeliveryRow, now: Date): Promise<SendResult> {
    if (!row.secret_encrypted) return { outcome: 'failed', error: 'agent webhook delivery without a secret', durationMs: 0 };
    const secret = box.decrypt(row.secret_encrypted, 'the agent\'s webhook secret');
    const headers = { ...standardWebhookHeaders(secret, row.webhook_id ?? `msg_${row.uuid}`, now, row.payload), 'X-Webhook-Secret': secret };
    return postJson(http, row.destination, headers, row.payload, now);
  };
}

/** A 2xx from the agent's webhook delivers the message it pushed. */
export async function markPushDelivered(trx: Trx, row: DeliveryRow, now: Date): Promise<void> {
  if (!row.subject_uuid) return;
  await trx('agent_messages').where({ uuid: row.subject_uuid }).update({ delivered: true });
  await trx('agent_messages').where({ uuid: row.subject_uuid }).whereNull('delivered_at').update({ delivered_at: now.toISOString() });
}

/** A 410 from the agent's webhook removes the webhook (when it is still the one the push went to). */
export async function removeGoneWebhook(trx: Trx, row: DeliveryRow, now: Date): Promise<void> {
  if (!row.subject_uuid) return;
  const message = await trx('agent_messages').where({ uuid: row.subject_uuid }).first('agent_uuid');
  if (!message) return;
  await trx('agents')
    .where({ uuid: message.agent_uuid, webhook_url: row.destination })
    .update({ webhook_url: null, webhook_secret_encrypted: null, webhook_registered_at: null, updated_at: now.toISOString() });
}
