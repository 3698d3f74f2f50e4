import { sha256Hex } from '../lib/secrets.ts';
import type { Db, Executor } from './connection.ts';
import type { Clock } from '../lib/clock.ts';
import type { Logger } from '../lib/logger.ts';

/** What one use of a budget came to. */
export interface Take {
  allowed: boolean;
  /**
   * Units of the window used so far, this one included: exact with one process; with several, it also counts
   * what the others hold and have not granted yet, so it is never below the truth. At most `limit`.
   */
  used: number;
  limit: number;
  /** Seconds until the window ends (the budget's reset). */
  resetSeconds: number;
}

/** What this process holds of one bucket's window. */
interface Lease {
  bucket: string;
  windowStart: number;
  windowEnd: number;
  /** Units this process may still grant without asking the database. */
  available: number;
  /** The window's stored count after this process's last lease: every unit any process has taken so far. */
  known: number;
  /** Size of the last lease; the next is fetched ahead when `available` falls to a quarter of it. */
  lastLease: number;
  /** The stored count reached the limit: nothing more can be leased in this window. */
  exhausted: boolean;
  leasing: Promise<void> | null;
}

/** The most units one lease takes: bounds what a crash can waste and what one process holds back from the others. */
const MAX_LEASE = 1000;
/** A lease takes at most this fraction of what is left of the budget: leases shrink to one unit near the limit. */
const LEASE_DIVISOR = 16;

export const leaseSize = (limit: number, known: number): number => Math.max(1, Math.min(MAX_LEASE, Math.floor((limit - known) / LEASE_DIVISOR)));

/**
 * Every counted budget of the API: the hourly budgets per credential and scope, the Plan minute ceilings per
 * actor, the free-plan daily caps per organization, and anything else counted in fixed windows
 * (`take(bucket, limit, windowSeconds)`; a window of 86,400 s is the UTC day, since Unix time has no leap seconds).
 *
 * Exact across processes and never forgotten on a crash, without a database round trip per request. The stored
 * count (`rate_limit_counters`) is what all processes have *taken*, not what they have granted: a process
 * takes a lease of units with one atomic upsert (`count = count + n … returning count`) and grants requests
 * from it in memory. A lease is cut to what the budget still has (`limit − count before`), so the units
 * granted by all processes together never exceed the limit, and every granted unit was stored before its
 * request was answered. Leases are a sixteenth of what is left (at most 1,000), down to one unit at a time
 * near the limit, and the next is fetched ahead while a quarter of the current one remains, so a request far
 * from the limit never waits for the database.
 *
 * What this costs: a process that crashes loses the units it held and had not granted; they stay counted as
 * used (conservative: a budget can come out smaller, never larger). A clean stop hands them back (`close`).
 * Units one process holds are not available to another until the window ends, which near the limit is at most
 * a unit or so per process.
 */
export class Budgets {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #leases = new Map<string, Lease>();
  #sweeper: NodeJS.Timeout | null;

  constructor(db: Db, clock: Clock, logger: Logger) {
    this.#db = db;
    this.#clock = clock;
    this.#logger = logger;
    this.#sweeper = setInterval(() => this.#sweep(), 60_000);
    this.#sweeper.unref();
  }

  /**
   * Uses one unit of `bucket`'s current window of `windowSeconds`, if the window still has one under `limit`.
   * Synchronous while this process holds units (nearly every request): no promise on the hot path.
   */
  take(bucket: string, limit: number, windowSeconds: number): Take | Promise<Take> {
    const nowSeconds = Math.floor(this.#clock.now().getTime() / 1000);
    const windowStart = nowSeconds - (nowSeconds % windowSeconds);
    const key = `${bucket}\u0000${windowStart}`;
    let lease = this.#leases.get(key);
    if (!lease) {
      lease = { bucket, windowStart, windowEnd: windowStart + windowSeconds, available: 0, known: 0, lastLease: 0, exhausted: false, leasing: null };
      this.#leases.set(key, lease);
    }
    return this.#grant(lease, limit, lease.windowEnd - nowSeconds);
  }

  #grant(lease: Lease, limit: number, resetSeconds: number): Take | Promise<Take> {
    if (lease.available > 0) {
      lease.available -= 1;
      if (!lease.exhausted && lease.leasing === null && lease.available * 4 <= lease.lastLease) {
        this.#lease(lease, limit).catch((err) => this.#logger.warn({ err, bucket: lease.bucket }, 'could not lease budget ahead; the next request asks again'));
      }
      return { allowed: true, used: Math.min(limit, lease.known - lease.available), limit, resetSeconds };
    }
    if (lease.exhausted) return { allowed: false, used: limit, limit, resetSeconds };
    return this.#lease(lease, limit).then(() => this.#grant(lease, limit, resetSeconds));
  }

  /** One lease at a time per window: requests that find the lease empty all wait for the same one. */
  #lease(lease: Lease, limit: number): Promise<void> {
    lease.leasing ??= (async () => {
      const size = leaseSize(limit, lease.known);
      const count = await addToCounter(this.#db, lease.bucket, lease.windowStart, size);
      lease.available += Math.max(0, Math.min(size, limit - (count - size)));
      lease.known = count;
      lease.lastLease = size;
      if (count >= limit) lease.exhausted = true;
    })().finally(() => {
      lease.leasing = null;
    });
    return lease.leasing;
  }

  /** Forgets windows that have ended (their unused units stay counted; the window is over anyway). */
  #sweep(nowSeconds = Math.floor(this.#clock.now().getTime() / 1000)): void {
    for (const [key, lease] of this.#leases) {
      if (lease.windowEnd <= nowSeconds && lease.leasing === null) this.#leases.delete(key);
    }
  }

  /** A clean stop: hands the units this process holds back to the windows still running, and stops leasing. */
  async close(): Promise<void> {
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#sweeper = null;
    await Promise.allSettled([...this.#leases.values()].map((lease) => lease.leasing));
    const nowSeconds = Math.floor(this.#clock.now().getTime() / 1000);
    const returned = [...this.#leases.values()]
      .filter((lease) => lease.available > 0 && lease.windowEnd > nowSeconds)
      .map((lease) => ({ lease, units: lease.available }));
    for (const lease of this.#leases.values()) {
      lease.exhausted = true;
      lease.available = 0;
    }
    if (returned.length === 0) return;
    await this.#db
      .transaction(async (trx) => {
        for (const { lease, units } of returned) await addToCounter(trx, lease.bucket, lease.windowStart, -units);
      })
      .catch((err) => this.#logger.warn({ err }, 'could not hand unused budget back; it stays counted until its window ends'));
  }
}

/** `rate_limit_counters.bucket` is a varchar(200). */
const BUCKET_MAX = 200;

/**
 * The bucket as stored: itself when it fits the column, else its first 120 characters (its scope stays readable)
 * and the SHA-256 of all of it, so a long part (a client address, an e-mail) neither overflows the column nor
 * shares a count with another bucket.
 */
export const storedBucket = (bucket: string): string =>
  bucket.length <= BUCKET_MAX ? bucket : `${bucket.slice(0, 120)}#${sha256Hex(bucket)}`;

/**
 * Adds `delta` to a window's stored count and returns the new total: one portable upsert (SQLite ≥ 3.35 and
 * PostgreSQL), atomic on both, so processes sharing the database never lose each other's additions.
 */
export async function addToCounter(db: Executor, bucket: string, windowStart: number, delta: number): Promise<number> {
  const [row] = await db('rate_limit_counters')
    .insert({ bucket: storedBucket(bucket), window_start: windowStart, count: delta })
    .onConflict(['bucket', 'window_start'])
    .merge({ count: db.raw('?? + ?', ['rate_limit_counters.count', delta]) })
    .returning(['count']);
  return Number(row.count);
}

/** Drops counters of windows that started more than a day before `before` (the hourly maintenance job). */
export async function pruneCounters(db: Executor, before: Date): Promise<number> {
  return db('rate_limit_counters').where('window_start', '<', Math.floor(before.getTime() / 1000) - 86_400).delete();
}
