import type { Executor } from '../../db/connection.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import { enqueue } from '../../outbox/deliveries.ts';

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

/** Messages of one agent go out one at a time, in order; cancelling an agent's pushes selects by this key. */
export const agentOrderingKey = (organizationUuid: string, agentName: string) => `agent:${organizationUuid}:${agentName}`;

/**
 * Queues the push of an agent message: `{event: "agent.message", message}` to the agent's webhook, with
 * X-Webhook-Secret and Standard Webhooks headers (the agents feature's `agent_webhook` sender). `subject_uuid`
 * is the message's uuid: a 2xx marks it delivered, a 410 removes the webhook (the feature's delivery hooks).
 */
export async function enqueueAgentWebhook(db: Executor, box: SecretBox, params: AgentWebhookDelivery, now: Date): Promise<string> {
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
      secretEncrypted: box.encrypt(params.secret),
    },
    now,
  );
}
