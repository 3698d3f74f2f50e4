import type { Db } from '../../db/connection.ts';
import { ValidationFailed } from '../../lib/errors.ts';
import type { Actor } from '../../auth/credentials.ts';
import { refuseUrl } from '../../outbound/address-policy.ts';
import type { Resolver } from '../../outbound/address-policy.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import { cancelPending } from '../../outbox/deliveries.ts';
import { assertAgentName, ensureAgent, requireAgent } from './identity.ts';
import { agentOrderingKey } from './webhook-delivery.ts';
import type { WebhookDeleteInput, WebhookInput } from './schema.ts';

/**
 * POST /v1/agent-webhook/ (CONTRACT §6, §10): an https:// URL that passes the address checks (again at connect
 * time); the secret is kept encrypted and sent back as X-Webhook-Secret with every push.
 */
export async function registerWebhook(
  db: Db,
  box: SecretBox,
  policy: { allowPrivate: boolean; resolve?: Resolver },
  actor: Actor,
  input: WebhookInput,
  now: Date,
) {
  assertAgentName(input.agent_name);
  const refusal = await refuseUrl(input.webhook_url, policy); // DNS lookup: before, never inside, the transaction
  if (refusal) throw new ValidationFailed({ webhook_url: [refusal] });
  return db.transaction(async (trx) => {
    const agent = await ensureAgent(trx, actor.organization.uuid, input.agent_name, now);
    await trx('agents').where({ uuid: agent.uuid }).update({
      webhook_url: input.webhook_url,
      webhook_secret_encrypted: box.encrypt(input.webhook_secret),
      webhook_registered_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    return { agentName: agent.name, webhookUrl: input.webhook_url };
  });
}

/** DELETE /v1/agent-webhook/ : removes the webhook; pushes not yet sent are cancelled (messages stay pending). */
export async function unregisterWebhook(db: Db, actor: Actor, input: WebhookDeleteInput, now: Date) {
  return db.transaction(async (trx) => {
    const agent = await requireAgent(trx, actor.organization.uuid, input.agent_name);
    await trx('agents')
      .where({ uuid: agent.uuid })
      .update({ webhook_url: null, webhook_secret_encrypted: null, webhook_registered_at: null, updated_at: now.toISOString() });
    await cancelPending(trx, { channel: 'agent_webhook', orderingKey: agentOrderingKey(agent.organization_uuid, agent.name) }, null, now);
    return { agentName: agent.name, hadWebhook: agent.webhook_url !== null };
  });
}
