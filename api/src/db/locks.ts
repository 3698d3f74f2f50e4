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

/**
 * Locks the rows `query` selects as the DELETE of them will: FOR UPDATE. A deletion takes its rows this way up
 * front, after their parents' locks, rather than FOR NO KEY UPDATE and then the DELETE: in between, another
 * transaction's insert pointing at the row takes a key-share lock (its foreign key check) that the DELETE must
 * wait for, while that transaction waits for a lock the deletion holds (a deadlock).
 */
export function forDelete<Q extends Knex.QueryBuilder>(db: Executor, query: Q): Q {
  return isSqlite(engineOf(db)) ? query : (query.forUpdate() as Q);
}

/**
 * A lock not granted in time: PostgreSQL's lock_timeout, SQLite's busy timeout. Not a deadlock (40P01): that is
 * a transaction conflict, which the transaction's retry runs again (db/retry.ts).
 */
export function isLockTimeout(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '55P03' || (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code));
}

/**
 * Runs `work` (statements that take a contended lock) waiting at most `ms` for each lock; a lock not granted in
 * time fails with an error `isLockTimeout` recognizes. PostgreSQL: lock_timeout for `work`, set back to the
 * connection's own afterwards (the transaction's later statements wait as long as any other's). SQLite: the
 * connection's busy timeout, set back afterwards.
 */
export async function withLockTimeout<T>(trx: Executor, ms: number, work: () => Promise<T>): Promise<T> {
  if (!isSqlite(engineOf(trx))) {
    await trx.raw(`set local lock_timeout = '${Math.round(ms)}ms'`);
    const result = await work();
    await trx.raw('set local lock_timeout to default');
    return result;
  }
  if (ms === SQLITE_BUSY_TIMEOUT_MS) return work();
  await trx.raw(`pragma busy_timeout = ${Math.round(ms)}`);
  try {
    return await work();
  } finally {
    await trx.raw(`pragma busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  }
}
