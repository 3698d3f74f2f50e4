import type { Db, Executor } from '../db/connection.ts';
import type { Logger } from '../lib/logger.ts';
import type { Clock } from '../lib/clock.ts';

interface Entry {
  bucket: string;
  windowStart: number;
  /** The database's count at the last sync (all processes' requests). */
  base: number;
  /** Requests counted here since that sync, not yet written. */
  pending: number;
  /** Settles once the first read of this window's row has come back. */
  loaded: Promise<void> | null;
  windowEnd: number;
}

/**
 * Hourly-budget counters with write-behind. Each request is counted in memory at once and the increments are
 * added to `rate_limit_counters` every `flushMs` in one transaction, which also reads back what other API
 * processes added. A database write per request would cost more than the rest of a request together; this
 * keeps budgets exact within one process, shared across processes to within one flush interval, and durable
 * across restarts (a crash can lose at most one interval of counts, never a budget).
 */
export class RateCounters {
  private readonly entries = new Map<string, Entry>();
  private readonly db: Db;
  private readonly logger: Logger;
  private readonly nowSeconds: () => number;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(db: Db, logger: Logger, clock: Clock, flushMs = 1000) {
    this.db = db;
    this.logger = logger;
    this.nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
    if (flushMs > 0) {
      this.timer = setInterval(() => void this.flush().catch((err) => this.logger.error({ err }, 'rate counter flush failed')), flushMs);
      this.timer.unref();
    }
  }

  /**
   * Counts one request in `bucket`'s window that starts at `windowStart`; returns the window's total so far.
   * Synchronous once the window's stored count is known (every request but a window's first): no promise on
   * the hot path.
   */
  hit(bucket: string, windowStart: number, windowSeconds: number): number | Promise<number> {
    const key = `${bucket}\u0000${windowStart}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { bucket, windowStart, base: 0, pending: 0, loaded: null, windowEnd: windowStart + windowSeconds };
      const created = entry;
      created.loaded = this.db('rate_limit_counters')
        .where({ bucket, window_start: windowStart })
        .first('count')
        .then((row) => {
          created.base = Number(row?.count ?? 0);
          created.loaded = null;
        });
      this.entries.set(key, created);
    }
    entry.pending += 1;
    if (entry.loaded) {
      const counted = entry;
      return entry.loaded.then(() => counted.base + counted.pending);
    }
    return entry.base + entry.pending;
  }

  /** Writes pending increments (one transaction) and drops windows that have ended. */
  flush(nowSeconds = this.nowSeconds()): Promise<void> {
    this.flushing ??= this.writePending(nowSeconds).finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async writePending(nowSeconds: number): Promise<void> {
    const batch = [...this.entries.entries()].filter(([, e]) => e.pending > 0 && !e.loaded);
    if (batch.length > 0) {
      const taken = batch.map(([, e]) => e.pending);
      const totals = await this.db.transaction(async (trx) => {
        const results: number[] = [];
        for (const [i, [, e]] of batch.entries()) results.push(await addToCounter(trx, e.bucket, e.windowStart, taken[i]));
        return results;
      });
      for (const [i, [, e]] of batch.entries()) {
        // Requests counted while the write ran stay pending for the next flush.
        e.pending -= taken[i];
        e.base = totals[i];
      }
    }
    for (const [key, e] of this.entries) {
      if (e.windowEnd <= nowSeconds && e.pending === 0 && !e.loaded) this.entries.delete(key);
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush(Number.MAX_SAFE_INTEGER);
  }
}

/**
 * Adds `delta` to a window's stored count and returns the new total. One portable upsert (SQLite ≥ 3.35 and
 * PostgreSQL), so several API processes share the same counters.
 */
export async function addToCounter(db: Executor, bucket: string, windowStart: number, delta: number): Promise<number> {
  const [row] = await db('rate_limit_counters')
    .insert({ bucket, window_start: windowStart, count: delta })
    .onConflict(['bucket', 'window_start'])
    .merge({ count: db.raw('?? + ?', ['rate_limit_counters.count', delta]) })
    .returning(['count']);
  return Number(row.count);
}
