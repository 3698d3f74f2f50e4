import type { Executor } from '../../db/connection.ts';
import { organizationConfig } from '../../db/organization-config.ts';
import type { OrganizationConfig } from '../../db/organization-config.ts';
import { readJson } from '../../lib/json.ts';
import { withoutAnonymousPeople } from '../../outbox/events.ts';
import type { TriggerConfig, WorkflowRow } from './repository.ts';
import { startRun } from './runs.ts';

const covers = (pattern: string, event: string) => pattern === event || (pattern.endsWith('.*') && event.startsWith(pattern.slice(0, -1)));

/**
 * The active event workflows of the organization whose trigger names `event` (or a prefix of it), with their
 * settings. The events they listen for are kept under the organization's settings version
 * (db/organization-config.ts): an event nobody listens for, the usual case, reads no workflow.
 */
async function listeningWorkflows(db: Executor, organizationUuid: string, event: string, settings?: OrganizationConfig): Promise<{ workflow: WorkflowRow; config: TriggerConfig }[]> {
  const listened = await (settings ?? (await organizationConfig(db, organizationUuid))).part('workflows:events', async () => {
    const rows: Pick<WorkflowRow, 'trigger_config'>[] = await db('workflows').where({ organization_uuid: organizationUuid, trigger_type: 'event', active: true }).select('trigger_config');
    return rows.map((row) => readJson<TriggerConfig>(row.trigger_config, {}).event).filter((pattern): pattern is string => Boolean(pattern));
  });
  if (!listened.some((pattern) => covers(pattern, event))) return [];
  const workflows: WorkflowRow[] = await db('workflows').where({ organization_uuid: organizationUuid, trigger_type: 'event', active: true });
  return workflows
    .map((workflow) => ({ workflow, config: readJson<TriggerConfig>(workflow.trigger_config, {}) }))
    .filter(({ config }) => config.event && covers(config.event, event));
}

/** Whether an active event workflow of the organization listens for `event` (before its `match` is checked). */
export async function isEventListened(db: Executor, organizationUuid: string, event: string, settings?: OrganizationConfig): Promise<boolean> {
  return (await listeningWorkflows(db, organizationUuid, event, settings)).length > 0;
}

/**
 * Starts a run of every active event workflow of the organization that listens for `event` and whose `match`
 * values equal the event's. Called for every organization event (features/webhooks/events.ts), in the
 * transaction of the change that caused it, so a kudos, a response or a task change and the runs it triggers
 * commit together. The payload is the webhook body, with people removed from anonymous events as webhooks
 * remove them.
 */
export async function startEventRuns(
  db: Executor,
  organizationUuid: string,
  event: string,
  payloadOf: () => Promise<Record<string, unknown>>,
  now: Date,
  settings?: OrganizationConfig,
): Promise<number> {
  let started = 0;
  for (const { workflow, config } of await listeningWorkflows(db, organizationUuid, event, settings)) {
    // Built only for a workflow that listens: a response's payload holds the whole day's answer.
    const payload = await payloadOf();
    if (Object.entries(config.match ?? {}).some(([key, value]) => payload[key] !== value)) continue;
    await startRun(db, workflow, { type: 'event', event, payload: withoutAnonymousPeople(payload) as Record<string, unknown> }, now);
    started++;
  }
  return started;
}
