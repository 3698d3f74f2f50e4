import type { Db } from '../db/connection.ts';
import type { Clock } from '../lib/clock.ts';
import { cancelPending, forgetSealedSecrets } from '../outbox/deliveries.ts';
import { FINGERPRINT_SETTING } from '../outbound/encryption-key.ts';
import type { SecretBox } from '../outbound/secret-box.ts';
import { lostKeyWorkflows, resealWorkflowSecrets } from '../features/workflows/lost-key.ts';
import { CommandError } from './commands.ts';

const REASON = 'the encryption key was lost, and the secrets it sealed were removed (rollcall admin forget-secrets)';

/**
 * `rollcall admin forget-secrets --yes`: the way on when the encryption key is lost for good. Removes what only
 * that key could open: agents' webhooks (their messages stay, pulled by health checks until a webhook is
 * registered again), organization webhook subscriptions (recreated with new signing secrets), chat connections
 * (connected again), and cancels their pending deliveries; deliveries keep no sealed copy. Workflows keep their
 * definitions, with new secrets sealed by `nextKey()` (the key the server will start with; those with
 * http_request actions are turned off, features/workflows/lost-key.ts). The next start records the new key.
 */
export async function forgetSecretsCommand(db: Db, clock: Clock, confirmed: boolean, nextKey: () => SecretBox) {
  const count = async (table: 'agents' | 'webhook_subscriptions' | 'chat_connections', column: string) =>
    Number((await db(table).whereNotNull(column).count({ n: '*' }))[0].n);
  const found = {
    agent_webhooks: await count('agents', 'webhook_secret_encrypted'),
    organization_webhooks: await count('webhook_subscriptions', 'secret_encrypted'),
    chat_connections: await count('chat_connections', 'credentials_encrypted'),
  };
  const workflows = await lostKeyWorkflows(db);
  if (!confirmed) {
    const resealed = workflows.workflows
      ? `; it gives ${workflows.workflows} workflow(s) a new signing secret without their request header values and turns off the ${workflows.turnedOff} active one(s) with http_request actions`
      : '';
    throw new CommandError(
      `this removes ${found.agent_webhooks} agent webhook(s), ${found.organization_webhooks} organization webhook subscription(s) and ` +
        `${found.chat_connections} chat connection(s), whose secrets no key can open any more${resealed}; run it again with --yes`,
    );
  }
  const now = clock.now();
  // Made (or read) before the transaction: with no ENCRYPTION_KEY, the key file the next start will use.
  const box = workflows.workflows ? nextKey() : null;
  const cancelled = await db.transaction(async (trx) => {
    await trx('agents')
      .whereNotNull('webhook_secret_encrypted')
      .update({ webhook_url: null, webhook_secret_encrypted: null, webhook_registered_at: null, updated_at: now.toISOString() });
    await trx('webhook_subscriptions').delete();
    await trx('chat_connections').delete();
    let pending = 0;
    for (const channel of ['agent_webhook', 'webhook', 'chat'] as const) pending += await cancelPending(trx, { channel }, REASON, now);
    // What is left would make the next start try the new key on a secret the lost one sealed. A pending
    // workflow request fails at its turn, with the reason, and its run shows it.
    await forgetSealedSecrets(trx);
    if (box) await resealWorkflowSecrets(trx, box, now);
    await trx('instance_settings').where({ key: FINGERPRINT_SETTING }).delete();
    return pending;
  });
  return {
    removed: found,
    workflows_resealed: workflows.workflows,
    workflows_turned_off: workflows.turnedOff,
    cancelled_deliveries: cancelled,
    next: 'start the server: it records the key it starts with',
  };
}
