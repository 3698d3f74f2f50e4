import type { Executor } from '../../db/connection.ts';
import type { DeliveryRow } from '../../db/tables.ts';
import { iso } from '../../lib/time.ts';
import type { RunActionRow, RunRow } from './repository.ts';

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed';

type DeliveryState = Pick<DeliveryRow, 'uuid' | 'subject_uuid' | 'status' | 'attempts' | 'last_status_code' | 'last_error' | 'next_attempt_at' | 'held_at' | 'updated_at' | 'delivered_at'>;

interface AttemptState {
  delivery_uuid: string;
  attempt: number;
  outcome: string;
  status_code: number | null;
  error: string | null;
  started_at: string;
}

export interface ActionResult {
  row: RunActionRow;
  status: RunStatus;
  attempts: number;
  statusCode: number | null;
  error: string | null;
  deliveries: number;
  finishedAt: string | null;
}

export interface LogLine {
  timestamp: string;
  level: 'info' | 'warn' | 'error';
  message: string;
}

export interface RunView {
  run: RunRow;
  status: RunStatus;
  actions: ActionResult[];
  log: LogLine[];
  startedAt: string | null;
  finishedAt: string | null;
}

function actionResult(row: RunActionRow, deliveries: DeliveryState[]): ActionResult {
  if (row.error !== null || deliveries.length === 0) {
    return { row, status: 'failed', attempts: 0, statusCode: null, error: row.error ?? 'nothing was queued', deliveries: 0, finishedAt: iso(row.created_at) };
  }
  const pending = deliveries.filter((d) => d.status === 'pending');
  const attempts = deliveries.reduce((sum, d) => sum + d.attempts, 0);
  const failed = deliveries.find((d) => d.status === 'failed' || d.status === 'cancelled');
  const last = deliveries.find((d) => d.last_error !== null) ?? deliveries[0];
  const status: RunStatus = pending.length ? (attempts === 0 ? 'queued' : 'running') : failed ? 'failed' : 'succeeded';
  const finished = pending.length ? null : deliveries.map((d) => iso(d.delivered_at ?? d.updated_at)!).sort().at(-1)!;
  return { row, status, attempts, statusCode: last.last_status_code, error: failed?.last_error ?? (pending.length ? last.last_error : null), deliveries: deliveries.length, finishedAt: finished };
}

/** A run's status, from its actions: all queued is queued, all finished is succeeded or failed, else running. */
function runStatus(actions: ActionResult[]): RunStatus {
  if (actions.every((a) => a.status === 'queued')) return 'queued';
  if (actions.some((a) => a.status === 'queued' || a.status === 'running')) return 'running';
  return actions.every((a) => a.status === 'succeeded') ? 'succeeded' : 'failed';
}

/**
 * Builds each run's status, per-action results and log from the outbox: the deliveries of its actions and their
 * attempts, which the delivery workers write as they go. Three queries for a whole page of runs.
 */
export async function runViews(db: Executor, runs: RunRow[]): Promise<RunView[]> {
  if (runs.length === 0) return [];
  const actionRows: RunActionRow[] = await db('workflow_run_actions').whereIn('run_uuid', runs.map((r) => r.uuid));
  const actionUuids = actionRows.map((a) => a.uuid);
  const deliveries: DeliveryState[] = [];
  for (let i = 0; i < actionUuids.length; i += 200) {
    deliveries.push(
      ...(await db('deliveries')
        .whereIn('subject_uuid', actionUuids.slice(i, i + 200))
        .select('uuid', 'subject_uuid', 'status', 'attempts', 'last_status_code', 'last_error', 'next_attempt_at', 'held_at', 'updated_at', 'delivered_at')),
    );
  }
  const attempts: AttemptState[] = [];
  const deliveryUuids = deliveries.map((d) => d.uuid);
  for (let i = 0; i < deliveryUuids.length; i += 200) {
    attempts.push(...(await db('delivery_attempts').whereIn('delivery_uuid', deliveryUuids.slice(i, i + 200)).select('delivery_uuid', 'attempt', 'outcome', 'status_code', 'error', 'started_at')));
  }
  return runs.map((run) => {
    const rows = actionRows.filter((a) => a.run_uuid === run.uuid).sort((a, b) => a.position - b.position);
    const actions = rows.map((row) => actionResult(row, deliveries.filter((d) => d.subject_uuid === row.uuid)));
    const status = runStatus(actions);
    const log: LogLine[] = [{ timestamp: iso(run.created_at)!, level: 'info', message: `Run queued by ${run.trigger}${run.event ? ` (${run.event})` : ''} with ${rows.length} action(s).` }];
    for (const action of actions) {
      const name = `Action ${action.row.position + 1} (${action.row.type})`;
      if (action.row.error !== null) log.push({ timestamp: iso(action.row.created_at)!, level: 'error', message: `${name} could not be queued: ${action.row.error}` });
      const mine = deliveries.filter((d) => d.subject_uuid === action.row.uuid);
      for (const delivery of mine) {
        for (const attempt of attempts.filter((a) => a.delivery_uuid === delivery.uuid)) {
          const result = attempt.status_code ? `HTTP ${attempt.status_code}` : (attempt.error ?? attempt.outcome);
          const level = attempt.outcome === 'delivered' ? 'info' : attempt.outcome === 'retry' ? 'warn' : 'error';
          const detail = attempt.outcome === 'delivered' ? 'delivered' : attempt.outcome === 'retry' ? `${result}; will retry` : `${result}; ${attempt.outcome === 'gone' ? 'gone' : 'failed'}`;
          log.push({ timestamp: iso(attempt.started_at)!, level, message: `${name} to ${action.row.destination ?? '?'}: attempt ${attempt.attempt}: ${detail}${attempt.error && attempt.status_code && attempt.error !== result && attempt.outcome !== 'delivered' ? ` (${attempt.error})` : ''}` });
        }
        if (delivery.status === 'pending' && delivery.held_at) log.push({ timestamp: iso(delivery.held_at)!, level: 'warn', message: `${name}: e-mail kept in the outbox (no SMTP_URL configured).` });
      }
    }
    log.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
    const startedAt = attempts.filter((a) => deliveries.some((d) => d.uuid === a.delivery_uuid && rows.some((r) => r.uuid === d.subject_uuid))).map((a) => iso(a.started_at)!).sort()[0] ?? null;
    const finishedAt = status === 'succeeded' || status === 'failed' ? actions.map((a) => a.finishedAt ?? '').sort().at(-1) ?? null : null;
    if (finishedAt) log.push({ timestamp: finishedAt, level: status === 'succeeded' ? 'info' : 'error', message: `Run ${status}.` });
    return { run, status, actions, log, startedAt, finishedAt };
  });
}
