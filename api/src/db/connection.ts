import fs from 'node:fs';
import path from 'node:path';
import knex from 'knex';
import type { Knex } from 'knex';

export type Db = Knex;
export type Trx = Knex.Transaction;
/** Service functions take either the database or a transaction, so callers decide the unit of work. */
export type Executor = Knex | Knex.Transaction;

/**
 * The only module that knows which database engine runs. SQLite (better-sqlite3) is the embedded default;
 * `postgres://` URLs use the same Knex code through the `pg` driver, which a self-hoster installs alongside.
 */
export function createDb(databaseUrl: string): Db {
  if (/^postgres(ql)?:/.test(databaseUrl)) {
    return knex({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 10 } });
  }
  const filename = sqliteFilename(databaseUrl);
  if (filename !== ':memory:') fs.mkdirSync(path.dirname(filename), { recursive: true });
  return knex({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        // WAL lets readers run beside the writer; NORMAL sync is durable across process crashes in WAL mode
        // (only an OS crash can lose the last commits); the busy timeout covers `rollcall admin` running
        // against the same file as the server.
        conn.pragma('journal_mode = WAL');
        conn.pragma('synchronous = NORMAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        done(null, conn);
      },
    },
  });
}

export function sqliteFilename(databaseUrl: string): string {
  const raw = databaseUrl.replace(/^(sqlite|file):(\/\/)?/, '');
  return raw === ':memory:' ? raw : path.resolve(raw);
}

export const isSqlite = (db: Db): boolean => db.client.config.client === 'better-sqlite3';

/** Online backup of a SQLite database to `file` (consistent while the server keeps writing). */
export async function backupSqlite(db: Db, file: string): Promise<void> {
  if (!isSqlite(db)) throw new Error('backup is for SQLite databases; use pg_dump for PostgreSQL');
  const conn = (await db.client.acquireConnection()) as { backup(file: string): Promise<unknown> };
  try {
    await conn.backup(path.resolve(file));
  } finally {
    await db.client.releaseConnection(conn);
  }
}
