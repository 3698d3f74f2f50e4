import { readJson } from '../../lib/json.ts';
import { iso } from '../../lib/time.ts';
import type { DeliveryAttemptRow, DeliveryRow } from '../../db/tables.ts';

const SECRET_KINDS = /code|token|password|secret|sign.?in|login/i;

/** What an admin sees of a delivery: destination, state, why it failed. Secrets never; e-mail bodies with codes never. */
function message(row: DeliveryRow) {
  if (row.channel === 'email') {
    const m = readJson<{ to?: string[]; subject?: string; text?: string }>(row.payload, {});
    return { to: m.to ?? [], subject: m.subject ?? '', text: SECRET_KINDS.test(row.kind) ? null : (m.text ?? null) };
  }
  return readJson<unknown>(row.payload, null);
}

export function presentAttempt(a: DeliveryAttemptRow) {
  return { attempt: a.attempt, outcome: a.outcome, status_code: a.status_code, error: a.error, duration_ms: a.duration_ms, started_at: iso(a.started_at) };
}

export function presentDelivery(row: DeliveryRow, attempts: DeliveryAttemptRow[] | null = null, held = false) {
  const body = {
    uuid: row.uuid,
    id: row.uuid,
    channel: row.channel,
    kind: row.kind,
    destination: row.destination,
    status: row.status,
    held: held && row.channel === 'email' && row.status === 'pending',
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    webhook_id: row.channel === 'webhook' || row.channel === 'agent_webhook' ? row.webhook_id : null,
    payload: message(row),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    delivered_at: iso(row.delivered_at),
  };
  return attempts ? { ...body, attempt_log: attempts.map(presentAttempt) } : body;
}
