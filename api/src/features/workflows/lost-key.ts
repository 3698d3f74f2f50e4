import type { Executor } from '../../db/connection.ts';
import { readJson, writeJson } from '../../lib/json.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import { newSigningSecret } from '../../outbound/signing.ts';
import { isActive } from './repository.ts';
import type { StoredAction, WorkflowRow, WorkflowSecrets } from './repository.ts';

const sendsRequests = (row: Pick<WorkflowRow, 'actions'>) => readJson<StoredAction[]>(row.actions, []).some((action) => action.type === 'http_request');

/** What `resealWorkflowSecrets` would change: every workflow, and the active ones it would turn off. */
export async function lostKeyWorkflows(db: Executor): Promise<{ workflows: number; turnedOff: number }> {
  const rows: Pick<WorkflowRow, 'actions' | 'active'>[] = await db('workflows').select('actions', 'active');
  return { workflows: rows.length, turnedOff: rows.filter((row) => isActive(row) && sendsRequests(row)).length };
}

/**
 * The key that sealed the workflows' secrets is lost (`rollcall admin forget-secrets`). A workflow keeps its
 * definition and runs; its secrets are sealed anew with `box` (the key the server will start with): a new
 * signing secret and no header values. One with http_request actions is turned off, since its requests would go
 * out without their headers and signed with a secret no receiver knows: an admin saves its actions again (or
 * creates it again, for a signing secret to give the receivers) and turns it back on.
 */
export async function resealWorkflowSecrets(trx: Executor, box: SecretBox, now: Date): Promise<void> {
  const rows: Pick<WorkflowRow, 'uuid' | 'actions' | 'active'>[] = await trx('workflows').select('uuid', 'actions', 'active');
  for (const row of rows) {
    const secrets: WorkflowSecrets = { signing_secret: newSigningSecret(), headers: {} };
    await trx('workflows')
      .where({ uuid: row.uuid })
      .update({ secrets_encrypted: box.encrypt(writeJson(secrets)), active: isActive(row) && !sendsRequests(row), updated_at: now.toISOString() });
  }
}
