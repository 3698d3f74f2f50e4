import type { Knex } from 'knex';
import type { Db } from './connection.ts';
import { isSqlite } from './connection.ts';
import { ConfigError } from '../lib/config.ts';
import { migrations } from './migrations/index.ts';
import { optimizeDatabase } from './maintenance.ts';

/** Migrations come from a static list (no directory scan), so they load the same under tsc, vitest and node. */
const source: Knex.MigrationSource<(typeof migrations)[number]> = {
  getMigrations: async () => migrations,
  getMigrationName: (migration) => migration.name,
  getMigration: (migration) => migration.load(),
};

interface LockClient {
  connect(): Promise<void>;
  query(sql: string, values?: unknown[]): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'error', listener: (err: Error) => void): void;
}

/**
 * Runs `work` (migrating, bootstrapping an empty database) in one process at a time: processes started together
 * on one PostgreSQL database wait for each other on a session advisory lock, held on a connection of its own
 * (outside the pool, which `work` uses), so the second finds the tables made and the first organization there.
 * Knex's own migration lock makes a concurrent start fail instead of wait. SQLite: one process per file.
 */
export async function withStartupLock<T>(db: Db, databaseUrl: string, work: () => Promise<T>): Promise<T> {
  if (isSqlite(db)) return work();
  const Client = (db.client as unknown as { driver: { Client: new (config: { connectionString: string }) => LockClient } }).driver.Client;
  const lock = new Client({ connectionString: databaseUrl });
  lock.on('error', () => {});
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock(hashtext($1))', ['rollcall-startup']);
    return await work();
  } finally {
    await lock.end().catch(() => {});
  }
}

export async function migrateLatest(db: Db): Promise<string[]> {
  await requireUtf8(db);
  const [, applied] = (await db.migrate.latest({ migrationSource: source })) as [number, string[]];
  await optimizeDatabase(db, { atStart: true });
  return applied;
}

export async function pendingMigrations(db: Db): Promise<number> {
  const [, pending] = (await db.migrate.list({ migrationSource: source })) as [unknown[], unknown[]];
  return pending.length;
}

/**
 * A PostgreSQL database must store text as UTF-8. In a SQL_ASCII database a varchar(n) counts bytes, so a
 * 128-character agent name in another script no longer fits and the write fails with a server error; refuse
 * such a database before anything runs on it, naming the setting to change.
 */
async function requireUtf8(db: Db): Promise<void> {
  if (isSqlite(db)) return;
  const { rows } = (await db.raw("select current_setting('server_encoding') as encoding")) as { rows: { encoding: string }[] };
  const encoding = rows[0]?.encoding;
  if (encoding !== 'UTF8') {
    throw new ConfigError('DATABASE_URL', `the PostgreSQL database uses the ${encoding} encoding; Rollcall needs UTF8 (CREATE DATABASE … ENCODING 'UTF8' TEMPLATE template0)`);
  }
}
