import type { Knex } from 'knex';
import type { Db } from './connection.ts';
import { migrations } from './migrations/index.ts';

/** Migrations come from a static list (no directory scan), so they load the same under tsc, vitest and node. */
const source: Knex.MigrationSource<(typeof migrations)[number]> = {
  getMigrations: async () => migrations,
  getMigrationName: (migration) => migration.name,
  getMigration: (migration) => migration.load(),
};

export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource: source })) as [number, string[]];
  return applied;
}

export async function pendingMigrations(db: Db): Promise<number> {
  const [, pending] = (await db.migrate.list({ migrationSource: source })) as [unknown[], unknown[]];
  return pending.length;
}
