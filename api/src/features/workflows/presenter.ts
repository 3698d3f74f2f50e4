import { readJson } from '../../lib/json.ts';
import { iso } from '../../lib/time.ts';
import { isActive } from './repository.ts';
import type { RunRow, StoredAction, TriggerConfig, WorkflowRow } from './repository.ts';
import type { RunView } from './run-status.ts';

const MASK = '••••••••';

/** An action as people see it: header values are write-only (they often carry credentials). */
function presentAction(action: StoredAction) {
  if (action.type !== 'http_request') return action;
  const { header_names: names, ...rest } = action;
  return { ...rest, headers: Object.fromEntries(names.map((name) => [name, MASK])) };
}

/** CONTRACT §7 workflow; `signing_secret` only in the create answer. */
export function presentWorkflow(row: WorkflowRow, signingSecret?: string) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    name: row.name,
    description: row.description ?? null,
    trigger_type: row.trigger_type,
    trigger_config: readJson<TriggerConfig>(row.trigger_config, {}),
    actions: readJson<StoredAction[]>(row.actions, []).map(presentAction),
    active: isActive(row),
    total_runs: Number(row.total_runs),
    last_run_at: iso(row.last_run_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    ...(signingSecret ? { signing_secret: signingSecret } : {}),
  };
}

export function presentRun(view: RunView) {
  const { run } = view;
  return {
    uuid: run.uuid,
    id: run.uuid,
    workflow_uuid: run.workflow_uuid,
    status: view.status,
    trigger: run.trigger,
    event: run.event,
    payload: readJson<Record<string, unknown>>(run.payload, {}),
    triggered_by: run.triggered_by_uuid,
    created_at: iso(run.created_at),
    started_at: view.startedAt,
    finished_at: view.finishedAt,
    actions: view.actions.map((a) => ({
      index: a.row.position,
      type: a.row.type,
      status: a.status,
      destination: a.row.destination,
      deliveries: a.deliveries,
      attempts: a.attempts,
      last_status_code: a.statusCode,
      error: a.error,
      finished_at: a.finishedAt,
    })),
    log: view.log,
  };
}

/** The 202 answer of POST …/trigger/ (CONTRACT §7), with the run to follow. */
export const presentQueued = (run: Pick<RunRow, 'uuid' | 'workflow_uuid'>) => ({
  queued: true,
  workflow_uuid: run.workflow_uuid,
  run_uuid: run.uuid,
  detail: 'The workflow run is queued; follow it at GET /v1/workflows/{uuid}/runs/.',
});
