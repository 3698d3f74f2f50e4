import type { Executor, Trx } from '../db/connection.ts';
import type { AttemptOutcome, Channel, DeliveryRow, DeliveryStatus } from '../db/tables.ts';
import { uuidv7 } from '../lib/ids.ts';
import { writeJson } from '../lib/json.ts';

/**
 * The outbox (CONTRACT §10): the only module that writes `deliveries` and `delivery_attempts` rows. A feature
 * enqueues inside the transaction of the change that causes the message, so the message exists exactly when
 * its cause does; the delivery worker (outbound/worker.ts) sends it after the commit (kick it then).
 */
export interface NewDelivery {
  organizationUuid: string | null;
  channel: Channel;
  /** What caused it (invitation, agent.message, followups.response.completed, …): shown in /v1/deliveries/. */
  kind: string;
  /** Where it goes (address or URL); never a secret. */
  destination: string;
  payload: unknown;
  /** Deliveries sharing a key go out one at a time, in the order they were enqueued. */
  orderingKey?: string | null;
  refUuid?: string | null;
  subjectUuid?: string | null;
  secretEncrypted?: string | null;
  /** Standard Webhooks id, kept across every retry: a fresh `msg_<uuid>` by default, null for e-mail. */
  webhookId?: string | null;
}

/** An e-mail as the `email` channel sends it (outbound/mailer.ts). */
export interface EmailMessage {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  headers?: Record<string, string>;
}

// uuidv7 orders ids made in one process even within a millisecond, so rows sharing an ordering key are sent
// in the order they were enqueued (the worker reads due rows by next_attempt_at, then uuid).
function deliveryRow(d: NewDelivery, now: Date) {
  const uuid = uuidv7(now.getTime());
  const stamp = now.toISOString();
  return {
    uuid,
    organization_uuid: d.organizationUuid,
    channel: d.channel,
    kind: d.kind,
    destination: d.destination,
    payload: writeJson(d.payload),
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: stamp,
    created_at: stamp,
    updated_at: stamp,
    webhook_id: d.webhookId === undefined ? `msg_${uuid}` : d.webhookId,
    ordering_key: d.orderingKey ?? null,
    ref_uuid: d.refUuid ?? null,
    subject_uuid: d.subjectUuid ?? null,
    secret_encrypted: d.secretEncrypted ?? null,
  };
}

/** Writes one outbox row; returns its uuid. */
export async function enqueue(db: Executor, delivery: NewDelivery, now: Date): Promise<string> {
  const row = deliveryRow(delivery, now);
  await db('deliveries').insert(row);
  return row.uuid;
}

/** Writes many outbox rows in multi-row inserts (40 rows each: well under SQLite's bound-parameter limit). */
export async function enqueueMany(db: Executor, deliveries: NewDelivery[], now: Date): Promise<string[]> {
  const rows = deliveries.map((d) => deliveryRow(d, now));
  for (let i = 0; i < rows.length; i += 40) await db('deliveries').insert(rows.slice(i, i + 40));
  return rows.map((row) => row.uuid);
}

/**
 * Stands in an e-mail's subject, text and HTML for a secret (a sign-in code) that the outbox keeps encrypted
 * (`secretEncrypted`): the e-mail sender puts the secret in at the moment of sending, so the stored message
 * never holds it in clear.
 */
export const EMAIL_SECRET_PLACEHOLDER = '{{secret}}';

/** An e-mail into the outbox. Without SMTP_URL it is held there (and logged once) until a mailer is configured. */
export function enqueueEmail(
  db: Executor,
  params: { organizationUuid: string | null; kind: string; message: EmailMessage; secretEncrypted?: string },
  now: Date,
): Promise<string> {
  const { organizationUuid, kind, message, secretEncrypted } = params;
  return enqueue(
    db,
    { organizationUuid, channel: 'email', kind, destination: message.to.join(', '), payload: message, webhookId: null, secretEncrypted: secretEncrypted ?? null },
    now,
  );
}

/** Which pending deliveries to cancel: one channel, narrowed by what they belong to. */
export interface PendingSelection {
  channel: Channel;
  refUuid?: string;
  orderingKey?: string;
  subjectUuids?: string[];
}

/** Cancels pending deliveries that should not go out any more (their endpoint was removed, or they are moot). */
export async function cancelPending(db: Executor, selection: PendingSelection, reason: string | null, now: Date): Promise<number> {
  const query = db('deliveries').where({ channel: selection.channel, status: 'pending' });
  if (selection.refUuid !== undefined) query.andWhere({ ref_uuid: selection.refUuid });
  if (selection.orderingKey !== undefined) query.andWhere({ ordering_key: selection.orderingKey });
  if (selection.subjectUuids !== undefined) query.whereIn('subject_uuid', selection.subjectUuids);
  return query.update({ status: 'cancelled', updated_at: now.toISOString(), ...(reason === null ? {} : { last_error: reason }) });
}

/**
 * Drops every delivery's sealed copy of its secret (the encryption key that sealed them is lost: rollcall admin
 * forget-secrets). A pending delivery without one fails at its turn with its sender's reason.
 */
export async function forgetSealedSecrets(db: Executor): Promise<void> {
  await db('deliveries').whereNotNull('secret_encrypted').update({ secret_encrypted: null });
}

/** Puts a delivery back at the start of its retry schedule (same payload, same webhook-id). */
export async function resetForRedelivery(db: Executor, uuid: string, now: Date): Promise<void> {
  await db('deliveries').where({ uuid }).update({ status: 'pending', attempts: 0, next_attempt_at: now.toISOString(), delivered_at: null, updated_at: now.toISOString() });
}

/** Marks held e-mails as logged, so each is logged once. */
export async function markHeld(db: Executor, uuids: string[], now: Date): Promise<void> {
  if (uuids.length) await db('deliveries').whereIn('uuid', uuids).update({ held_at: now.toISOString() });
}

/** Replaces a delivery's payload while it is being sent (a multi-step chat post records how far it got). */
export async function saveProgress(db: Executor, uuid: string, payload: unknown): Promise<void> {
  await db('deliveries').where({ uuid }).update({ payload: writeJson(payload) });
}

/** One attempt, as the worker decided it. */
export interface SettledAttempt {
  delivery: DeliveryRow;
  attempt: number;
  outcome: AttemptOutcome;
  status: DeliveryStatus;
  nextAttemptAt: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  started: Date;
  /** Replaces the stored payload when set. */
  payload?: unknown;
}

/** The attempt log rows of a batch (50 rows per insert). */
export async function recordAttempts(trx: Trx, attempts: SettledAttempt[]): Promise<void> {
  const rows = attempts.map((a) => ({
    uuid: uuidv7(a.started.getTime()),
    delivery_uuid: a.delivery.uuid,
    attempt: a.attempt,
    outcome: a.outcome,
    status_code: a.statusCode,
    error: a.error,
    duration_ms: a.durationMs,
    started_at: a.started.toISOString(),
  }));
  for (let i = 0; i < rows.length; i += 50) await trx('delivery_attempts').insert(rows.slice(i, i + 50));
}

/**
 * Writes what an attempt came to on its delivery. False when the row was no longer pending (cancelled or sent
 * again meanwhile): the attempt is on record, the row is someone else's now.
 */
export async function settle(trx: Trx, a: SettledAttempt, now: Date): Promise<boolean> {
  const changed = await trx('deliveries')
    .where({ uuid: a.delivery.uuid, status: 'pending' })
    .update({
      status: a.status,
      attempts: a.attempt,
      next_attempt_at: a.nextAttemptAt,
      last_error: a.outcome === 'delivered' ? null : a.error,
      last_status_code: a.statusCode,
      delivered_at: a.outcome === 'delivered' ? now.toISOString() : null,
      updated_at: now.toISOString(),
      ...(a.payload !== undefined ? { payload: writeJson(a.payload) } : {}),
    });
  return changed > 0;
}
