import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';

/**
 * Transactions that lost a race on PostgreSQL run again. SQLite runs one transaction at a time (one connection,
 * one writer), so a check followed by a write there always sees what the previous request wrote; PostgreSQL runs
 * them side by side, and three things can come of that which SQLite never shows:
 *
 * - a deadlock (40P01) or a serialization failure (40001): the server chose this transaction to fail;
 * - a unique violation (23505): two requests both checked "not there yet" and both inserted the same row (a
 *   reaction, a favorite, a member, the first report of an agent name). Run again, the loser sees the winner's
 *   row and gives the answer it would have given one request later: the idempotent one.
 *
 * So `db.transaction(work)` on the top-level database retries `work` in a fresh transaction, up to
 * `TRANSACTION_ATTEMPTS` times in all with a short random pause, when it failed with one of those. Everything
 * `work` did was rolled back with its transaction; `work` must therefore touch nothing but `trx` (the rule every
 * transaction already follows, and the group commit's). A savepoint (`trx.transaction`) is never retried alone:
 * its error reaches the top-level transaction, which is. A unique violation still there after the last attempt,
 * or from a statement outside any transaction, answers 409 `concurrent_write` (http/errors.ts), never a 500.
 */
export const TRANSACTION_ATTEMPTS = 4;

const codeOf = (err: unknown): string | undefined => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** A unique constraint refused the write (SQLite or PostgreSQL): a concurrent writer inserted the same key first. */
export function isUniqueViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** PostgreSQL chose this transaction to fail: a deadlock or a serialization failure. */
export function isTransactionConflict(err: unknown): boolean {
  const code = codeOf(err);
  return code === '40P01' || code === '40001';
}

/** Whether a transaction that failed with `err` is worth running again from the start. */
export function isRetryable(err: unknown): boolean {
  return isTransactionConflict(err) || isUniqueViolation(err);
}

/** Runs `attempt` until it succeeds, fails with an error that is not retryable, or has run `attempts` times. */
export async function withRetries<T>(attempt: () => Promise<T>, attempts = TRANSACTION_ATTEMPTS): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (n >= attempts || !isRetryable(err)) throw err;
      // Apart a little, and more each time, so the transactions that collided do not meet again at once.
      await sleep(Math.floor(Math.random() * 10 * n) + 1);
    }
  }
}

/**
 * Makes `db.transaction(work)` retry as described above (PostgreSQL). `db.transaction()` without a function (a
 * transaction handed out to be committed by hand) is left as Knex has it: nothing could run it again.
 */
export function retryTransactions(db: Knex): void {
  const begin = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
  Object.defineProperty(db, 'transaction', {
    configurable: true,
    value: (work: unknown, config?: unknown) => (typeof work === 'function' ? withRetries(() => begin(work, config)) : begin(work, config)),
  });
}
