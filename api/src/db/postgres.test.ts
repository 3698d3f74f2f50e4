import { describe, expect, it } from 'vitest';
import { migrateLatest } from './migrate.ts';
import { ConfigError } from '../lib/config.ts';
import { openTestDatabase, tableNames } from '../../test/database.ts';

describe.runIf(process.env.ROLLCALL_TEST_ENGINE === 'postgres')('a PostgreSQL database', () => {
  it('that does not store UTF-8 is refused before anything runs on it, naming DATABASE_URL', async () => {
    const { db, close } = await openTestDatabase({ encoding: 'SQL_ASCII' });
    try {
      const refusal = await migrateLatest(db).catch((err: unknown) => err);
      expect(refusal).toBeInstanceOf(ConfigError);
      expect((refusal as ConfigError).variable).toBe('DATABASE_URL');
      expect((refusal as ConfigError).message).toContain('uses the SQL_ASCII encoding; Rollcall needs UTF8');
      expect(await tableNames(db)).toEqual([]);
    } finally {
      await close();
    }
  });
});
