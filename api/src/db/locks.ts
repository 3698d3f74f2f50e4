import type { Knex } from 'knex';
import { SQLITE_BUSY_TIMEOUT_MS, isSqlite } from './connection.ts';
import type { Db, Executor } from './connection.ts';

/**
 * Row locks the same way on both engines. PostgreSQL locks rows; SQLite has one writer at a time (and this process
 * one connection), so what PostgreSQL serializes with a row lock SQLite already runs one after another, and a
 * lock there can only be held by another process (`rollcall admin` on the same file).
 */

const engineOf = (db: Executor): Db => db as unknown as Db;

/**
 * Locks the rows `query` selects until the transaction ends, as an UPDATE that changes no key would: FOR NO KEY
 * UPDATE, which (unlike FOR UPDATE) lets other transactions insert rows whose foreign keys point at them (a task
 * created under a parent being edited).
 */
export function forWrite<Q extends Knex.QueryBuilder>(db: Executor, query: Q): Q {
  return isSqlite(engineOf(db)) ? query : (query.forNoKeyUpdate() as Q);
}

/** A refusal to wait longer for a lock: PostgreSQL's lock_timeout or a deadlock, SQLite's busy timeout. */
export function isLockFailure(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '55P03' || code === '40P01' || (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code));
}

/**
 * Runs `work` (statements that take a contended lock) waiting at most `ms` for each lock; a lock not granted in
 * time fails with an error `isLockFailure` recognizes. PostgreSQL: lock_timeout for the rest of the transaction.
 * SQLite: the connection's busy timeout, set back afterwards.
 */
export async function withLockTimeout<T>(trx: Executor, ms: number, work: () => Promise<T>): Promise<T> {
  if (!isSqlite(engineOf(trx))) {
    await trx.raw(`set local lock_timeout = '${Math.round(ms)}ms'`);
    return work();
  }
  if (ms === SQLITE_BUSY_TIMEOUT_MS) return work();
  await trx.raw(`pragma busy_timeout = ${Math.round(ms)}`);
  try {
    return await work();
  } finally {
    await trx.raw(`pragma busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  }
}
