import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from './connection.ts';
import { migrateLatest } from './migrate.ts';
import { ConfigError } from '../config.ts';
import { testDatabase } from '../../test/database.ts';

describe.runIf(process.env.ROLLCALL_TEST_ENGINE === 'postgres')('a PostgreSQL database', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-postgres-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('that does not store UTF-8 is refused before anything runs on it, naming DATABASE_URL', async () => {
    const database = await testDatabase(dir, { encoding: 'SQL_ASCII' });
    const db = createDb(database.url);
    try {
      const refusal = await migrateLatest(db).catch((err: unknown) => err);
      expect(refusal).toBeInstanceOf(ConfigError);
      expect((refusal as ConfigError).variable).toBe('DATABASE_URL');
      expect((refusal as ConfigError).message).toContain('uses the SQL_ASCII encoding; Rollcall needs UTF8');
      expect(await db('pg_tables').where({ schemaname: db.raw('current_schema()') }).select('tablename')).toEqual([]);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
