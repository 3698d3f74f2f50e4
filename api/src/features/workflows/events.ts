import type { Executor } from '../../db/connection.ts';
import { readJson } from '../../lib/json.ts';
import { withoutAnonymousPeople } from '../../outbox/events.ts';
import type { TriggerConfig, WorkflowRow } from './repository.ts';
import { startRun } from './runs.ts';

const covers = (pattern: string, event: string) => pattern === event || (pattern.endsWith('.*') && event.startsWith(pattern.slice(0, -1)));

/**
 * Starts a run of every active event workflow of the organization that listens for `event` and whose `match`
 * values equal the event's. Called by recordEvent, in the transaction of the change that caused the event, so a
 * kudos or a response and the runs it triggers commit together. The payload is the webhook body, with people
 * removed from anonymous events as webhooks remove them.
 */
export async function startEventRuns(db: Executor, organizationUuid: string, event: string, payloadOf: () => Promise<Record<string, unknown>>, now: Date): Promise<number> {
  const workflows: WorkflowRow[] = await db('workflows').where({ organization_uuid: organizationUuid, trigger_type: 'event', active: true });
  let started = 0;
  for (const workflow of workflows) {
    const config = readJson<TriggerConfig>(workflow.trigger_config, {});
    if (!config.event || !covers(config.event, event)) continue;
    // Built only for a workflow that listens: a response's payload holds the whole day's answer.
    const payload = await payloadOf();
    if (Object.entries(config.match ?? {}).some(([key, value]) => payload[key] !== value)) continue;
    await startRun(db, workflow, { type: 'event', event, payload: withoutAnonymousPeople(payload) as Record<string, unknown> }, now);
    started++;
  }
  return started;
}
