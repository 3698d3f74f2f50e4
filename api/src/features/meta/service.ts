import type { Db } from '../../db/connection.ts';
import { pendingMigrations } from '../../db/migrate.ts';
import type { Logger } from '../../lib/logger.ts';

/** Readiness: the database answers, and how many migrations are still to run (null when it does not answer). */
export async function readiness(db: Db, logger: Logger): Promise<{ pendingMigrations: number | null }> {
  try {
    await db.raw('select 1');
    return { pendingMigrations: await pendingMigrations(db) };
  } catch (err) {
    logger.warn({ err }, 'readiness check failed');
    return { pendingMigrations: null };
  }
}
