import type { Executor } from './connection.ts';
import { notify } from './notifications.ts';
import type { Notifications } from './notifications.ts';
import type { Clock } from '../lib/clock.ts';
import { readJson } from '../lib/json.ts';

/**
 * Instance-wide values, stored as JSON: operator switches (`plan_read_only`: Plan writes answer 503 while it is
 * on) and what the instance must remember about itself (`encryption_key_fingerprint`). Every process re-reads
 * its settings when told (on PostgreSQL, at the commit of this write).
 */
export async function setSetting(db: Executor, key: string, value: unknown, now: Date): Promise<void> {
  await db('instance_settings')
    .insert({ key, value: JSON.stringify(value), updated_at: now.toISOString() })
    .onConflict('key')
    .merge();
  await notify(db, 'settings');
}

/** The stored value, or undefined when the setting was never written. */
export async function getSetting<T>(db: Executor, key: string): Promise<T | undefined> {
  const row = await db('instance_settings').where({ key }).first('value');
  return row ? readJson<T | undefined>(row.value, undefined) : undefined;
}

/** The operator's incident switch (`rollcall admin read-only on|off`), stored in instance_settings. */
export const READ_ONLY_SETTING = 'plan_read_only';

/**
 * Whether Plan writes are refused right now. Read from the database at most every `ttlMs` (2 s), and again at
 * once when another process signals a settings change (db/notifications.ts): the operator command's switch
 * reaches every running server within milliseconds on PostgreSQL, within `ttlMs` on SQLite or should the
 * signal be lost. A write pays for the lookup once per interval, not once per request (which on PostgreSQL is
 * a network round trip).
 */
export class ReadOnlySwitch {
  readonly #db: Executor;
  readonly #clock: Clock;
  readonly #ttlMs: number;
  #value = false;
  #readAt = Number.NEGATIVE_INFINITY;
  #reading: Promise<boolean> | null = null;
  /** Counts signals: a read that started before one answers its caller but is not kept as fresh. */
  #generation = 0;

  constructor(db: Executor, clock: Clock, options: { ttlMs?: number; notifications?: Notifications } = {}) {
    this.#db = db;
    this.#clock = clock;
    this.#ttlMs = options.ttlMs ?? 2000;
    options.notifications?.subscribe('settings', () => {
      this.#generation++;
      this.#readAt = Number.NEGATIVE_INFINITY;
    });
  }

  /** The switch's state; synchronous while the last read is fresh. */
  isOn(): boolean | Promise<boolean> {
    const now = this.#clock.now().getTime();
    if (now - this.#readAt < this.#ttlMs && now >= this.#readAt) return this.#value;
    const generation = this.#generation;
    this.#reading ??= this.#db('instance_settings')
      .where({ key: READ_ONLY_SETTING })
      .first('value')
      .then((row) => {
        this.#value = readJson<boolean>(row?.value, false) === true;
        if (generation === this.#generation) this.#readAt = now;
        return this.#value;
      })
      .finally(() => {
        this.#reading = null;
      });
    return this.#reading;
  }
}
