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
