import type { Knex } from 'knex';
import type { Executor } from './connection.ts';

type Binding = Knex.RawBinding;

/**
 * Statements of the hottest paths (every Plan request's access check and Idempotency-Key, every Plan write's
 * change log), written once as SQL: a Knex builder costs about 60 µs a statement to build, compile and run on
 * SQLite, the same statement as raw SQL about 20 µs (in process, a primary-key lookup: 80 µs against 22 µs).
 * The SQL must read the same on both engines: `?` bindings, plain identifiers (quote a reserved word with
 * double quotes), nothing engine-specific. Elsewhere, use the builder: it is clearer, and fast enough.
 */
export async function rowsOf<T>(db: Executor, sql: string, bindings: readonly Binding[]): Promise<T[]> {
  const result = (await db.raw(sql, bindings as Binding[])) as T[] | { rows: T[] };
  // better-sqlite3 answers the rows; pg answers a result whose rows they are.
  return Array.isArray(result) ? result : result.rows;
}

/** The first row `sql` reads, or undefined. */
export async function firstOf<T>(db: Executor, sql: string, bindings: readonly Binding[]): Promise<T | undefined> {
  return (await rowsOf<T>(db, sql, bindings))[0];
}

/** `insert into <table> (<columns>) values (?, …)` for one row, with the bindings in the same order. */
export function insertRow(table: string, row: Record<string, unknown>, suffix = ''): { sql: string; bindings: Binding[] } {
  const columns = Object.keys(row);
  return {
    sql: `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})${suffix}`,
    bindings: columns.map((column) => normalized(row[column])),
  };
}

/** Values as Knex's builder would bind them: undefined as null (raw bindings refuse undefined). */
const normalized = (value: unknown): Binding => (value === undefined ? null : (value as Binding));
