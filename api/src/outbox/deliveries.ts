import type { Db, Executor, Trx } from '../db/connection.ts';
import { isSqlite } from '../db/connection.ts';
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
  /** The Message-ID to send with (`<…@…>`), when replies must find the message again (check-in prompts). */
  messageId?: string;
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
    claimed_by: null,
    lease_expires_at: null,
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

/**
 * An e-mail into the outbox. Without SMTP_URL it is held there (and logged once) until a mailer is configured.
 * `refUuid` names what it belongs to (an invitation), so a later change can cancel it while it waits.
 */
export function enqueueEmail(
  db: Executor,
  params: { organizationUuid: string | null; kind: string; message: EmailMessage; secretEncrypted?: string; refUuid?: string },
  now: Date,
): Promise<string> {
  const { organizationUuid, kind, message, secretEncrypted, refUuid } = params;
  return enqueue(
    db,
    { organizationUuid, channel: 'email', kind, destination: message.to.join(', '), payload: message, webhookId: null, secretEncrypted: secretEncrypted ?? null, refUuid },
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

/**
 * Takes up to `limit` held e-mails (no SMTP_URL) not yet logged and marks them logged, so each is logged once
 * even with several processes looking (PostgreSQL: rows another process is taking are skipped, not waited for).
 */
export async function takeUnloggedHeldEmails(db: Db, now: Date, limit: number): Promise<DeliveryRow[]> {
  // Run before every delivery round, and most rounds find nothing: ask without opening a transaction first (a
  // Knex transaction builds a whole query interface; hundreds a second were most of a backlog's old-space garbage).
  if (!(await db('deliveries').where({ channel: 'email', status: 'pending' }).whereNull('held_at').first('uuid'))) return [];
  return db.transaction(async (trx) => {
    const query = trx('deliveries').where({ channel: 'email', status: 'pending' }).whereNull('held_at').limit(limit);
    const rows: DeliveryRow[] = await (isSqlite(db) ? query : query.forUpdate().skipLocked());
    if (rows.length) await trx('deliveries').whereIn('uuid', rows.map((r) => r.uuid)).update({ held_at: now.toISOString() });
    return rows;
  });
}

/**
 * PostgreSQL, several processes sending from one outbox: claims up to `limit` due rows for `owner` until
 * `now + leaseMs` and returns them (oldest due first). In one statement: rows another process is claiming are
 * skipped (`for update skip locked`), rows whose lease has not lapsed are left alone, and a row with an ordering
 * key is taken only when no older due row of its key is pending and no row of its key is on the wire anywhere,
 * so rows sharing a key go out one at a time, in order, across processes. A lease lapses when its process
 * dies (it stops renewing: `renewLeases`), and another process then takes the row.
 */
export async function claimDue(db: Db, params: { owner: string; now: Date; leaseMs: number; limit: number; held: Channel[] }): Promise<DeliveryRow[]> {
  const now = params.now.toISOString();
  const until = new Date(params.now.getTime() + params.leaseMs).toISOString();
  const held = params.held.length ? `and d.channel not in (${params.held.map(() => '?').join(', ')})` : '';
  const { rows } = (await db.raw(
    `with due as (
       select d.uuid from deliveries d
       where d.status = 'pending' and d.next_attempt_at <= ?
         and (d.lease_expires_at is null or d.lease_expires_at <= ?)
         ${held}
         and (d.ordering_key is null or not exists (
           select 1 from deliveries e
           where e.ordering_key = d.ordering_key and e.status = 'pending' and e.uuid <> d.uuid
             and (e.lease_expires_at > ? or (e.next_attempt_at <= ? and (e.next_attempt_at, e.uuid) < (d.next_attempt_at, d.uuid)))))
       order by d.next_attempt_at, d.uuid
       limit ${Math.max(1, Math.floor(params.limit))}
       for update of d skip locked)
     update deliveries set claimed_by = ?, lease_expires_at = ?
     from due where deliveries.uuid = due.uuid
     returning deliveries.*`,
    [now, now, ...params.held, now, now, params.owner, until],
  )) as { rows: DeliveryRow[] };
  return rows.sort((a, b) => (a.next_attempt_at === b.next_attempt_at ? (a.uuid < b.uuid ? -1 : 1) : a.next_attempt_at < b.next_attempt_at ? -1 : 1));
}

/** Extends `owner`'s leases on the rows it is still sending (its worker calls this well before they lapse). */
export async function renewLeases(db: Db, owner: string, uuids: string[], until: Date): Promise<void> {
  for (let i = 0; i < uuids.length; i += 200) {
    await db('deliveries').where({ claimed_by: owner }).whereIn('uuid', uuids.slice(i, i + 200)).update({ lease_expires_at: until.toISOString() });
  }
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
  /** The worker that claimed the row (PostgreSQL): its outcome is written only while the row is still its own. */
  owner?: string | null;
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

const SETTLE_CHUNK = 50;

/**
 * `settle` for many deliveries at once: one statement per 50 (an UPDATE … FROM a VALUES list, which both engines
 * take), where the worker wrote one builder-made UPDATE per delivery (at 1,500 sends a second, those were most of
 * a backlog's allocations). Returns the uuids it settled; the others were no longer pending or no longer the
 * owner's, as `settle` says. Each row gets exactly what `settle` would write.
 */
export async function settleAll(trx: Trx, attempts: SettledAttempt[], now: Date): Promise<Set<string>> {
  const settled = new Set<string>();
  const stamp = now.toISOString();
  for (let i = 0; i < attempts.length; i += SETTLE_CHUNK) {
    const chunk = attempts.slice(i, i + SETTLE_CHUNK);
    const bindings: (string | number | null)[] = [stamp];
    for (const a of chunk) {
      const delivered = a.outcome === 'delivered';
      bindings.push(a.delivery.uuid, a.status, a.attempt, a.nextAttemptAt, delivered ? null : a.error, a.statusCode, delivered ? stamp : null, a.payload !== undefined ? writeJson(a.payload) : null, a.owner || null);
    }
    const rows = chunk.map(() => '(?, ?, cast(? as integer), ?, ?, cast(? as integer), ?, ?, ?)').join(', ');
    // VALUES columns are column1… on both engines: uuid, status, attempts, next_attempt_at, last_error,
    // last_status_code, delivered_at, the replacement payload (null: keep), the owner that must hold the row.
    const result = (await trx.raw(
      `update deliveries set claimed_by = null, lease_expires_at = null, status = v.column2, attempts = v.column3,
         next_attempt_at = v.column4, last_error = v.column5, last_status_code = v.column6, delivered_at = v.column7,
         updated_at = ?, payload = coalesce(v.column8, deliveries.payload)
       from (values ${rows}) as v
       where deliveries.uuid = v.column1 and deliveries.status = 'pending' and (v.column9 is null or deliveries.claimed_by = v.column9)
       returning deliveries.uuid`,
      bindings,
    )) as { uuid: string }[] | { rows: { uuid: string }[] };
    for (const row of Array.isArray(result) ? result : result.rows) settled.add(row.uuid);
  }
  return settled;
}

/**
 * Records attempts and settles their deliveries (as recordAttempts then settleAll do), for outcomes that run no
 * hooks: on PostgreSQL in one statement per 50, a round trip with no transaction to open and commit; on SQLite in
 * one short transaction. The worker writes each such outcome as soon as it has it: the sooner a row the mail server
 * (or the endpoint) took is marked, the fewer rows a crash leaves to be sent again. Returns the uuids settled.
 */
export async function recordAndSettle(db: Db, attempts: SettledAttempt[], now: Date): Promise<Set<string>> {
  if (isSqlite(db)) {
    return db.transaction(async (trx) => {
      await recordAttempts(trx, attempts);
      return settleAll(trx, attempts, now);
    });
  }
  const settled = new Set<string>();
  const stamp = now.toISOString();
  for (let i = 0; i < attempts.length; i += SETTLE_CHUNK) {
    const chunk = attempts.slice(i, i + SETTLE_CHUNK);
    const bindings: (string | number | null)[] = [];
    for (const a of chunk) {
      const delivered = a.outcome === 'delivered';
      bindings.push(
        a.delivery.uuid, a.status, a.attempt, a.nextAttemptAt, delivered ? null : a.error, a.statusCode, delivered ? stamp : null,
        a.payload !== undefined ? writeJson(a.payload) : null, a.owner || null,
        uuidv7(a.started.getTime()), a.outcome, a.error, a.durationMs, a.started.toISOString(),
      );
    }
    bindings.push(stamp);
    const rows = chunk.map(() => '(?, ?, cast(? as integer), ?, ?, cast(? as integer), ?, ?, ?, ?, ?, ?, cast(? as integer), ?)').join(', ');
    // The attempt log and the delivery's new state in one statement: both or neither, as in a transaction.
    const { rows: done } = (await db.raw(
      `with v (uuid, status, attempts, next_attempt_at, last_error, last_status_code, delivered_at, payload, owner, attempt_uuid, outcome, error, duration_ms, started_at) as (values ${rows}),
       logged as (
         insert into delivery_attempts (uuid, delivery_uuid, attempt, outcome, status_code, error, duration_ms, started_at)
         select attempt_uuid, uuid, attempts, outcome, last_status_code, error, duration_ms, started_at from v)
       update deliveries set claimed_by = null, lease_expires_at = null, status = v.status, attempts = v.attempts,
         next_attempt_at = v.next_attempt_at, last_error = v.last_error, last_status_code = v.last_status_code, delivered_at = v.delivered_at,
         updated_at = ?, payload = coalesce(v.payload, deliveries.payload)
       from v
       where deliveries.uuid = v.uuid and deliveries.status = 'pending' and (v.owner is null or deliveries.claimed_by = v.owner)
       returning deliveries.uuid`,
      bindings,
    )) as { rows: { uuid: string }[] };
    for (const row of done) settled.add(row.uuid);
  }
  return settled;
}

/**
 * Writes what an attempt came to on its delivery, and ends its lease. False when the row was no longer pending
 * (cancelled or sent again meanwhile) or, with an owner, no longer claimed by it (its lease lapsed and another
 * process took it): the attempt is on record, the row is someone else's now.
 */
export async function settle(trx: Trx, a: SettledAttempt, now: Date): Promise<boolean> {
  return (await settleAll(trx, [a], now)).has(a.delivery.uuid);
}
