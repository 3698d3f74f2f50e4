import PQueue from 'p-queue';
import type { Db, Trx } from '../db/connection.ts';
import { isSqlite } from '../db/connection.ts';
import type { Notifications } from '../db/notifications.ts';
import type { Clock } from '../lib/clock.ts';
import { instanceId } from '../lib/ids.ts';
import type { Logger } from '../lib/logger.ts';
import { claimDue, recordAndSettle, recordAttempts, renewLeases, settleAll } from '../outbox/deliveries.ts';
import type { SettledAttempt } from '../outbox/deliveries.ts';
import type { DeliveryHook, DeliveryPart, SendResult, Sender } from './types.ts';
import { errorResult } from './http-sender.ts';
import type { Channel, DeliveryRow, DeliveryStatus } from '../db/tables.ts';

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
  /**
   * PostgreSQL: how long a claimed row stays this worker's without renewal (renewed every quarter of it while
   * it is being sent). When the process dies, its rows go to another process after at most this long.
   */
  leaseMs?: number;
  /** Wakes the workers of other processes when this one runs none (ROLE=api), and this one when others enqueue. */
  notifications?: Notifications;
}

/** Work done before each round of sending (the organization-event dispatcher registers here). */
export type BeforeRound = () => Promise<unknown>;

const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

interface Outcome {
  row: DeliveryRow;
  result: SendResult;
  started: Date;
  resolve: () => void;
  reject: (err: unknown) => void;
}
type Decided = Outcome & { attempt: number; outcome: SendResult['outcome']; nextAttemptAt: string; status: DeliveryStatus; error: string | null };

/** Outcomes without hooks written at once, side by side: PostgreSQL has the connections for it; SQLite has one. */
const PLAIN_WRITERS = { sqlite: 1, postgres: 4 };

/**
 * The delivery worker pool (CONTRACT §10). Reads due pending rows, sends each through its channel's sender
 * on a p-queue of bounded concurrency, and records every attempt. Rows that share an `ordering_key` go out
 * one at a time, oldest first. No transaction is open while a request is on the wire: the row is read, sent,
 * and only then is the outcome written (attempt row + delivery update + the channel's hooks) in one short
 * transaction. A crash between send and that write sends the row again after restart, with the same
 * webhook-id: delivery is at least once.
 *
 * Between the send and that write the row is sent but not marked: a crash then sends it again. The worker keeps that
 * window short: an outcome that runs no hooks (every e-mail, most webhooks) is written the moment it arrives, in one
 * statement on PostgreSQL, several such writes at once (#writePlain); outcomes with hooks go through one batch
 * transaction at a time, the hooks in order (#flush).
 *
 * Due rows are read a page at a time, never more than the pool can start soon: memory holds at most a few
 * times `concurrency` payloads however long the backlog. On SQLite (one process per file) rows are picked in
 * memory. On PostgreSQL several processes share the outbox: each claims rows with a lease (`claimDue`), renews
 * it while sending, and writes the outcome only while the row is still its own; a process that dies mid-send
 * stops renewing, and after its lease lapses another process sends the row again (the one case of a second
 * send). Ordering keys hold across processes there.
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
  /** Outcomes whose hooks run, written one batch transaction at a time. */
  readonly #outcomes: Decided[] = [];
  #flushing = false;
  /** Outcomes without hooks, written as they arrive by up to `#plainLimit` writers at once. */
  readonly #plain: Decided[] = [];
  #plainWriters = 0;
  readonly #plainLimit: number;
  /** PostgreSQL: this worker's name in `claimed_by`, its lease length, and the timer renewing in-flight leases. */
  readonly #claims: { owner: string; leaseMs: number } | null;
  #renewer: NodeJS.Timeout | null = null;
  #wakeOthers: NodeJS.Timeout | null = null;

  constructor(options: DeliveryWorkerOptions) {
    this.#o = options;
    this.#queue = new PQueue({ concurrency: options.concurrency });
    this.#claims = isSqlite(options.db) ? null : { owner: instanceId(), leaseMs: options.leaseMs ?? 30_000 };
    this.#plainLimit = isSqlite(options.db) ? PLAIN_WRITERS.sqlite : PLAIN_WRITERS.postgres;
    options.notifications?.subscribe('deliveries', () => this.kick());
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
  /** A feature's senders, hooks and pre-round work (the registry every channel is sent through). */
  register(part: DeliveryPart): void {
    for (const [channel, sender] of entries(part.senders)) this.registerSender(channel, sender);
    for (const [channel, hook] of entries(part.onDelivered)) this.onDelivered(channel, hook);
    for (const [channel, hook] of entries(part.onGone)) this.onGone(channel, hook);
    for (const [channel, hook] of entries(part.onFailed)) this.onFailed(channel, hook);
    for (const task of part.beforeRound ?? []) this.beforeRound(task);
  }

  /** Starts polling; the first round resumes every pending row left by a previous process. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#timer = setInterval(() => this.kick(), this.#o.pollMs);
    this.#timer.unref();
    if (this.#claims) {
      const { leaseMs } = this.#claims;
      this.#renewer = setInterval(() => void this.#renew().catch((err) => this.#o.logger.warn({ err }, 'could not renew delivery leases')), leaseMs / 4);
      this.#renewer.unref();
    }
    this.kick();
  }

  /**
   * Asks for a round soon (after a commit that wrote deliveries); rounds never overlap. In a process that runs
   * no workers (ROLE=api) it wakes those of the other processes instead, at most every 50 ms.
   */
  kick(): void {
    if (!this.#running) return this.#wakeOtherProcesses();
    if (this.#kickScheduled) return;
    this.#kickScheduled = true;
    setImmediate(() => {
      this.#kickScheduled = false;
      void this.#startRound();
    });
  }

  #wakeOtherProcesses(): void {
    const notifications = this.#o.notifications;
    if (!notifications?.shared || this.#wakeOthers) return;
    this.#wakeOthers = setTimeout(() => {
      this.#wakeOthers = null;
    }, 50);
    this.#wakeOthers.unref();
    void notifications.publish('deliveries');
  }

  async #renew(): Promise<void> {
    if (!this.#claims || this.#inFlight.size === 0) return;
    await renewLeases(this.#o.db, this.#claims.owner, [...this.#inFlight], new Date(this.#o.clock.now().getTime() + this.#claims.leaseMs));
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
    if (this.#claims) return this.#claimAndQueue();
    // Refilled when fewer than `concurrency` rows wait, up to four times that: one read per many sends. A read
    // per finished send (each fetching a page of payloads to queue one) made a backlog's garbage outgrow the heap.
    if (this.#queue.size >= this.#o.concurrency) return 0;
    const room = this.#o.concurrency * 4 - this.#queue.size - this.#queue.pending;
    if (room <= 0) return 0;
    const now = this.#o.clock.now();
    const held = this.#o.held?.() ?? [];
    // In-flight rows and busy ordering keys are skipped in memory rather than with NOT IN lists: one SQL
    // text for every round (prepared once) however many rows are on the wire.
    // The candidates' keys first, then the payloads of those queued only: rows already in flight come back in
    // every round's candidates, and reading their payloads again was garbage on every round.
    const candidates: Pick<DeliveryRow, 'uuid' | 'ordering_key'>[] = await this.#o.db('deliveries')
      .select('uuid', 'ordering_key')
      .where('status', 'pending')
      .andWhere('next_attempt_at', '<=', now.toISOString())
      .modify((q) => {
        if (held.length) q.whereNotIn('channel', held);
        // A long backlog behind a few busy ordering keys must not crowd everything else out of the batch.
        const busy = [...this.#busyKeys];
        if (busy.length > 0 && busy.length <= 20) q.andWhere((w) => w.whereNull('ordering_key').orWhereNotIn('ordering_key', busy));
      })
      .orderBy('next_attempt_at')
      .orderBy('uuid')
      .limit(room + this.#inFlight.size + 64);
    const chosen: string[] = [];
    for (const row of candidates.filter((candidate) => !this.#inFlight.has(candidate.uuid)).slice(0, room)) {
      if (row.ordering_key) {
        if (this.#busyKeys.has(row.ordering_key)) continue;
        this.#busyKeys.add(row.ordering_key);
      }
      this.#inFlight.add(row.uuid);
      chosen.push(row.uuid);
    }
    if (chosen.length === 0) return 0;
    let full: DeliveryRow[];
    try {
      full = await this.#o.db('deliveries').whereIn('uuid', chosen); // at most `room`: four times the concurrency
    } catch (err) {
      this.#release(chosen, candidates);
      throw err;
    }
    const byUuid = new Map(full.map((row) => [row.uuid, row]));
    let queued = 0;
    for (const uuid of chosen) {
      const row = byUuid.get(uuid);
      // Gone between the two reads (its organization deleted): let go.
      if (!row || row.status !== 'pending') {
        this.#release([uuid], candidates);
        continue;
      }
      queued++;
      void this.#queue.add(() => this.#deliver(row));
    }
    return queued;
  }

  /** Lets go of rows marked in flight that will not be sent this round. */
  #release(uuids: string[], candidates: Pick<DeliveryRow, 'uuid' | 'ordering_key'>[]): void {
    for (const uuid of uuids) {
      this.#inFlight.delete(uuid);
      const key = candidates.find((c) => c.uuid === uuid)?.ordering_key;
      if (key) this.#busyKeys.delete(key);
    }
  }

  /**
   * PostgreSQL: claims as many due rows as the pool can start now (a claimed row waiting in the queue would hold
   * its lease for nothing) and queues them.
   */
  async #claimAndQueue(): Promise<number> {
    const room = this.#o.concurrency - this.#inFlight.size;
    if (room <= 0) return 0;
    const rows = await claimDue(this.#o.db, { owner: this.#claims!.owner, now: this.#o.clock.now(), leaseMs: this.#claims!.leaseMs, limit: room, held: this.#o.held?.() ?? [] });
    for (const row of rows) {
      this.#inFlight.add(row.uuid);
      void this.#queue.add(() => this.#deliver(row));
    }
    return rows.length;
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
      // A sender that throws: a local failure (a secret the key cannot open, …) is final, anything else is retried.
      result = errorResult(err, Math.round(performance.now() - t0));
    }
    try {
      await this.#record(row, result, started);
    } catch (err) {
      this.#o.logger.error({ err, delivery: row.uuid }, 'could not record a delivery attempt');
    } finally {
      this.#inFlight.delete(row.uuid);
      if (row.ordering_key) this.#busyKeys.delete(row.ordering_key);
      // Another round when this row held up its key's next row, or when the queue runs low; not per row.
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

  /**
   * An outcome is decided when it arrives. Without hooks it is written at once (#writePlain). With hooks it goes
   * into a batch: every such result that arrives while a batch is written goes into the next transaction (one
   * multi-row insert of attempts, one update per run of deliveries, the hooks). A batch or write that fails (a hook
   * threw) is written again row by row, so one bad row cannot hold others back.
   */
  #record(row: DeliveryRow, result: SendResult, started: Date): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const decided: Decided = { row, result, started, resolve, reject, ...this.#decide(row, result, this.#o.clock.now()) };
      if (this.#hooksFor(row.channel, decided.outcome).length > 0) {
        this.#outcomes.push(decided);
        this.#scheduleFlush();
      } else {
        this.#plain.push(decided);
        this.#writePlain();
      }
    });
  }

  /** Starts writers for the waiting outcomes without hooks, up to the limit; each takes what waits when it starts. */
  #writePlain(): void {
    while (this.#plain.length > 0 && this.#plainWriters < this.#plainLimit) {
      this.#plainWriters++;
      const batch = this.#plain.splice(0, 200);
      void (async () => {
        try {
          const now = this.#o.clock.now();
          await this.#settle(batch, (part) => recordAndSettle(this.#o.db, part.map((o) => this.#settled(o)), now));
        } finally {
          this.#plainWriters--;
          this.#writePlain();
        }
      })();
    }
  }

  #scheduleFlush(): void {
    if (this.#flushing) return;
    this.#flushing = true;
    setImmediate(() => void this.#flush());
  }

  async #flush(): Promise<void> {
    const batch = this.#outcomes.splice(0, 500);
    try {
      const now = this.#o.clock.now();
      await this.#settle(batch, (part) => this.#o.db.transaction((trx) => this.#write(trx, part, now)));
    } finally {
      this.#flushing = false;
      if (this.#outcomes.length) this.#scheduleFlush();
    }
  }

  /** Writes `batch` with `write`, or row by row when the whole fails; settles each outcome's promise; logs failures. */
  async #settle(batch: Decided[], write: (part: Decided[]) => Promise<unknown>): Promise<void> {
    try {
      await write(batch);
      for (const o of batch) o.resolve();
    } catch {
      for (const o of batch) {
        try {
          await write([o]);
          o.resolve();
        } catch (err) {
          o.reject(err);
        }
      }
    }
    for (const o of batch) {
      if (o.outcome !== 'delivered') {
        this.#o.logger.warn(
          { delivery: o.row.uuid, channel: o.row.channel, kind: o.row.kind, attempt: o.attempt, outcome: o.outcome, status_code: o.result.statusCode ?? null, error: o.error },
          'delivery attempt did not succeed',
        );
      }
    }
  }

  #decide(row: DeliveryRow, result: SendResult, now: Date) {
    const attempt = row.attempts + 1;
    let outcome = result.outcome;
    let nextAttemptAt = row.next_attempt_at;
    if (outcome === 'retry') {
      const delay = this.retryDelay(attempt, result.retryAfterMs);
      if (delay === null) outcome = 'failed';
      else nextAttemptAt = new Date(now.getTime() + delay).toISOString();
    }
    const status: DeliveryStatus = outcome === 'delivered' ? 'delivered' : outcome === 'retry' ? 'pending' : 'failed';
    const error = outcome === 'gone' ? (result.error ?? 'gone: the destination answered 410; endpoint disabled') : (result.error ?? null);
    return { attempt, outcome, nextAttemptAt, status, error };
  }

  #settled(o: Decided): SettledAttempt {
    return {
      delivery: o.row,
      attempt: o.attempt,
      outcome: o.outcome,
      status: o.status,
      nextAttemptAt: o.nextAttemptAt,
      statusCode: o.result.statusCode ?? null,
      error: o.error,
      durationMs: o.result.durationMs,
      started: o.started,
      payload: o.result.payload,
      owner: this.#claims?.owner ?? null,
    };
  }

  async #write(trx: Trx, batch: Decided[], now: Date): Promise<void> {
    const settled = batch.map((o) => this.#settled(o));
    await recordAttempts(trx, settled);
    // Rows are settled in runs, one statement per run: a run ends at a row whose outcome has hooks, which run
    // right after it is settled, before the next row (a hook may cancel later rows: a 410 disables the endpoint),
    // so every row sees what it saw when each was settled alone.
    let run: SettledAttempt[] = [];
    for (const a of settled) {
      run.push(a);
      const hooks = this.#hooksFor(a.delivery.channel, a.outcome);
      if (hooks.length === 0) continue;
      const done = await settleAll(trx, run, now);
      run = [];
      if (!done.has(a.delivery.uuid)) continue;
      const updated: DeliveryRow = { ...a.delivery, status: a.status, attempts: a.attempt };
      for (const hook of hooks) await hook(trx, updated, now);
    }
    if (run.length > 0) await settleAll(trx, run, now);
  }

  /** The hooks an outcome calls, in order: a 410's `onGone`, then `onFailed` (it ends the delivery too). */
  #hooksFor(channel: Channel, outcome: SendResult['outcome']): DeliveryHook[] {
    if (outcome === 'delivered') return this.#delivered.get(channel) ?? [];
    if (outcome === 'failed') return this.#failed.get(channel) ?? [];
    if (outcome === 'gone') return [...(this.#gone.get(channel) ?? []), ...(this.#failed.get(channel) ?? [])];
    return [];
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

  /** Stops polling; in-flight sends finish (await idle()), their leases renewed until then. */
  stop(): void {
    this.#running = false;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  async idle(): Promise<void> {
    if (this.#round) await this.#round;
    await this.#queue.onIdle();
    if (!this.#running && this.#renewer) {
      clearInterval(this.#renewer);
      this.#renewer = null;
    }
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }
}

const entries = <T>(byChannel: Partial<Record<Channel, T>> | undefined) => Object.entries(byChannel ?? {}) as [Channel, T][];
