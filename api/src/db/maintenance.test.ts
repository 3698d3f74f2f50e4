import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/database.ts';
import type { Db } from './connection.ts';
import { isSqlite } from './connection.ts';
import { optimizeDatabase } from './maintenance.ts';
import { migrateLatest } from './migrate.ts';

describe('database maintenance', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await openTestDatabase());
    await migrateLatest(db);
  });
  afterAll(async () => close());

  it('gives SQLite\'s planner table statistics, and refreshes them when a table has grown', async () => {
    if (!isSqlite(db)) {
      // PostgreSQL's autovacuum keeps its own statistics: nothing to do.
      await expect(optimizeDatabase(db)).resolves.toBeUndefined();
      return;
    }
    const stat = async () => (await db('sqlite_stat1').where({ tbl: 'users' }).select('stat')).map((r) => r.stat as string);
    await db('organizations').insert({ uuid: 'o', name: 'Org', slug: 'org', timezone: 'UTC', plan: 'pro', created_at: 'x', updated_at: 'x' });
    for (let i = 0; i < 300; i++) await db('users').insert({ uuid: `u${i}`, organization_uuid: 'o', email: `u${i}@x.test`, first_name: 'U', last_name: String(i), role: 'member', is_active: true, created_at: 'x', updated_at: 'x' });
    await optimizeDatabase(db, { atStart: true });
    expect((await stat()).some((s) => s.startsWith('300 '))).toBe(true);
  });
});
