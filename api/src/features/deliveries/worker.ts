import PQueue from 'p-queue';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../logger.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { writeJson } from '../../lib/json.ts';
import type { Channel, DeliveryHook, DeliveryRow, SendResult, Sender } from './types.ts';

export interface DeliveryWorkerOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  concurrency: number;
  retryScheduleMs: number[];
  pollMs: number;
  /** Channels whose rows are not sent at all (e-mail without SMTP_URL): they stay pending in the outbox. */
  held?: () => Channel[];
  /** [0, 1) source for jitter; tests may pin it. */
  random?: () => number;
}

/** Work done before each round of sending (the organization-event dispatcher registers here). */
export type BeforeRound = () => Promise<unknown>;

const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * The delivery worker pool (CONTRACT §10). Reads due pending rows, sends each through its channel's sender
 * on a p-queue of bounded concurrency, and records every attempt. Rows that share an `ordering_key` go out
 * one at a time, oldest first. No transaction is open while a request is on the wire: the row is read, sent,
 * and only then is the outcome written (attempt row + delivery update + the channel's hooks) in one short
 * transaction. A crash between send and that write sends the row again after restart, with the same
 * webhook-id: delivery is at least once.
 */
export class DeliveryWorker {
  readonly #o: DeliveryWorkerOptions;
  readonly #queue: PQueue;
  readonly #senders = new Map<Channel, Sender>();
  readonly #delivered = new Map<Channel, DeliveryHook[]>();
  readonly #gone = new Map<Channel, DeliveryHook[]>();
  readonly #failed = new Map<Channel, DeliveryHook[]>();
  readonly #before: BeforeRound[] = [];
  readonly #inFlight = new Set<string>();
  readonly #busyKeys = new Set<string>();
  #timer: NodeJS.Timeout | null = null;
  #running = false;
  #round: Promise<void> | null = null;
  #again = false;
  #kickScheduled = false;

  constructor(options: DeliveryWorkerOptions) {
    this.#o = options;
    this.#queue = new PQueue({ concurrency: options.concurrency });
  }

  registerSender(channel: Channel, sender: Sender): void {
    this.#senders.set(channel, sender);
  }
  /** Called (inside the marking transaction) when a delivery of `channel` succeeds. */
  onDelivered(channel: Channel, hook: DeliveryHook): void {
    this.#delivered.set(channel, [...(this.#delivered.get(channel) ?? []), hook]);
  }
  /** Called when the destination answered 410 Gone: disable the endpoint. */
  onGone(channel: Channel, hook: DeliveryHook): void {
    this.#gone.set(channel, [...(this.#gone.get(channel) ?? []), hook]);
  }
  /** Called when a delivery ends as failed (schedule exhausted or refused destination). */
  onFailed(channel: Channel, hook: DeliveryHook): void {
    this.#failed.set(channel, [...(this.#failed.get(channel) ?? []), hook]);
  }
  beforeRound(task: BeforeRound): void {
    this.#before.push(task);
  }

  /** Starts polling; the first round resumes every pending row left by a previous process. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#timer = setInterval(() => this.kick(), this.#o.pollMs);
    this.#timer.unref();
    this.kick();
  }

  /** Asks for a round soon (after a commit that wrote deliveries); rounds never overlap. */
  kick(): void {
    if (!this.#running || this.#kickScheduled) return;
    this.#kickScheduled = true;
    setImmediate(() => {
      this.#kickScheduled = false;
      void this.#startRound();
    });
  }

  #startRound(): Promise<void> {
    if (this.#round) {
      this.#again = true;
      return this.#round;
    }
    this.#round = (async () => {
      try {
        do {
          this.#again = false;
          await this.#scheduleDue();
        } while (this.#again && this.#running);
      } catch (err) {
        this.#o.logger.error({ err }, 'delivery round failed');
      } finally {
        this.#round = null;
      }
    })();
    return this.#round;
  }

  /** Reads due rows and queues them; returns how many were queued. */
  async #scheduleDue(): Promise<number> {
    for (const task of this.#before) await task();
    const room = this.#o.concurrency * 4 - this.#queue.size - this.#queue.pending;
    if (room <= 0) return 0;
    const now = this.#o.clock.now();
    const held = this.#o.held?.() ?? [];
    const inFlight = [...this.#inFlight];
    const busy = [...this.#busyKeys];
    const rows: DeliveryRow[] = await this.#o.db('deliveries')
      .where('status', 'pending')
      .andWhere('next_attempt_at', '<=', now.toISOString())
      .modify((q) => {
        if (held.length) q.whereNotIn('channel', held);
        if (inFlight.length) q.whereNotIn('uuid', inFlight);
        if (busy.length) q.andWhere((w) => w.whereNull('ordering_key').orWhereNotIn('ordering_key', busy));
      })
      .orderBy('next_attempt_at')
      .orderBy('uuid')
      .limit(room);
    let queued = 0;
    for (const row of rows) {
      if (row.ordering_key) {
        if (this.#busyKeys.has(row.ordering_key)) continue;
        this.#busyKeys.add(row.ordering_key);
      }
      this.#inFlight.add(row.uuid);
      queued++;
      void this.#queue.add(() => this.#deliver(row));
    }
    return queued;
  }

  async #deliver(row: DeliveryRow): Promise<void> {
    const started = this.#o.clock.now();
    const t0 = performance.now();
    let result: SendResult;
    try {
      const sender = this.#senders.get(row.channel);
      result = sender
        ? await sender(row, started)
        : { outcome: 'failed', error: `no sender for channel ${row.channel}`, durationMs: 0 };
    } catch (err) {
      result = { outcome: 'retry', error: (err as Error).message?.slice(0, 500) ?? String(err), durationMs: Math.round(performance.now() - t0) };
    }
    try {
      await this.#record(row, result, started);
    } catch (err) {
      this.#o.logger.error({ err, delivery: row.uuid }, 'could not record a delivery attempt');
    } finally {
      this.#inFlight.delete(row.uuid);
      if (row.ordering_key) this.#busyKeys.delete(row.ordering_key);
      this.kick();
    }
  }

  /** The delay before retry number `attempt` (1-based), with ±10 % jitter; null when the schedule is exhausted. */
  retryDelay(attempt: number, retryAfter: number | null | undefined): number | null {
    const base = this.#o.retryScheduleMs[attempt - 1];
    if (base === undefined) return null;
    const jittered = Math.round(base * (0.9 + 0.2 * (this.#o.random ?? Math.random)()));
    return Math.max(jittered, Math.min(retryAfter ?? 0, MAX_RETRY_AFTER_MS));
  }

  async #record(row: DeliveryRow, result: SendResult, started: Date): Promise<void> {
    const attempt = row.attempts + 1;
    const now = this.#o.clock.now();
    let outcome = result.outcome;
    let nextAttemptAt = row.next_attempt_at;
    if (outcome === 'retry') {
      const delay = this.retryDelay(attempt, result.retryAfterMs);
      if (delay === null) outcome = 'failed';
      else nextAttemptAt = new Date(now.getTime() + delay).toISOString();
    }
    const status = outcome === 'delivered' ? 'delivered' : outcome === 'retry' ? 'pending' : 'failed';
    const error = outcome === 'gone' ? (result.error ?? 'gone: the destination answered 410; endpoint disabled') : (result.error ?? null);
    await this.#o.db.transaction(async (trx) => {
      await trx('delivery_attempts').insert({
        uuid: uuidv7(started.getTime()),
        delivery_uuid: row.uuid,
        attempt,
        outcome,
        status_code: result.statusCode ?? null,
        error,
        duration_ms: result.durationMs,
        started_at: started.toISOString(),
      });
      const changed = await trx('deliveries')
        .where({ uuid: row.uuid, status: 'pending' })
        .update({
          status,
          attempts: attempt,
          next_attempt_at: nextAttemptAt,
          last_error: outcome === 'delivered' ? null : error,
          last_status_code: result.statusCode ?? null,
          delivered_at: outcome === 'delivered' ? now.toISOString() : null,
          updated_at: now.toISOString(),
          ...(result.payload !== undefined ? { payload: writeJson(result.payload) } : {}),
        });
      // Cancelled or redelivered meanwhile: the attempt is on record, the row is someone else's now.
      if (!changed) return;
      const updated = { ...row, status, attempts: attempt } as DeliveryRow;
      const hooks = outcome === 'delivered' ? this.#delivered : outcome === 'gone' ? this.#gone : outcome === 'failed' ? this.#failed : null;
      for (const hook of hooks?.get(row.channel) ?? []) await hook(trx, updated, now);
      if (outcome === 'gone') for (const hook of this.#failed.get(row.channel) ?? []) await hook(trx, updated, now);
    });
    if (outcome !== 'delivered') {
      this.#o.logger.warn(
        { delivery: row.uuid, channel: row.channel, kind: row.kind, attempt, outcome, status_code: result.statusCode ?? null, error },
        'delivery attempt did not succeed',
      );
    }
  }

  /**
   * Sends everything due now and waits until it is recorded (tests and the benchmark call this; it works
   * whether or not the poller runs). Loops until a round finds nothing more to send.
   */
  async runDue(): Promise<void> {
    for (;;) {
      if (this.#round) await this.#round;
      const queued = await this.#scheduleDue();
      await this.#queue.onIdle();
      if (queued === 0 && this.#inFlight.size === 0) return;
    }
  }

  /** Stops polling; in-flight sends finish (await idle()). */
  stop(): void {
    this.#running = false;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  async idle(): Promise<void> {
    if (this.#round) await this.#round;
    await this.#queue.onIdle();
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }
}
