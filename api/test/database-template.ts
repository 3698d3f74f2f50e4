import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createDb } from '../src/db/connection.ts';
import { migrateLatest } from '../src/db/migrate.ts';

/**
 * The migrated database every test app starts from. Migrating a fresh database costs about 0.5 s on SQLite and
 * 4.5 s on PostgreSQL (some 60 migrations, each its own transaction); copying a migrated one costs about 50 ms
 * (a file copy) and 0.3 s (`CREATE DATABASE … TEMPLATE`). The vitest global setup (test/global-setup.ts) makes
 * one per project and run and names it in the environment the test processes inherit; without one (a benchmark,
 * a script) a test database starts empty and is migrated as before.
 */
export type TestEngine = 'sqlite' | 'postgres';

const TEMPLATE_VARIABLE: Record<TestEngine, string> = {
  sqlite: 'ROLLCALL_TEST_TEMPLATE_SQLITE',
  postgres: 'ROLLCALL_TEST_TEMPLATE_POSTGRES',
};

/** The template this run made for `engine` (a SQLite file's path, a PostgreSQL database's name), if any. */
export function templateFor(engine: TestEngine): string | undefined {
  return process.env[TEMPLATE_VARIABLE[engine]] || undefined;
}

/** `sql` on the PostgreSQL server `server` names, on a connection of its own. */
export async function onPostgresServer(server: string, sql: string): Promise<void> {
  const admin = createDb(server);
  try {
    await admin.raw(sql);
  } finally {
    await admin.destroy();
  }
}

/** `url` with the database `name` on the same server. */
export function databaseOnServer(url: string, name: string): string {
  const other = new URL(url);
  other.pathname = `/${name}`;
  return other.toString();
}

/**
 * Migrates a template for `engine` (on PostgreSQL, on TEST_DATABASE_URL's server) and names it in this
 * process's environment, so that test processes started afterwards copy it; remove() deletes it. Nobody keeps a
 * connection to it: PostgreSQL copies a database only while no one is connected to it.
 */
export async function makeTemplate(engine: TestEngine): Promise<{ remove: () => Promise<void> }> {
  if (engine === 'postgres') {
    const server = process.env.TEST_DATABASE_URL;
    if (!server) throw new Error('the postgres project needs TEST_DATABASE_URL');
    // Several engineers' runs share one server: a name of this run's own.
    const name = `rollcall_template_${randomBytes(6).toString('hex')}`;
    // UTF8 whatever the server's default; C collation orders text by bytes, as SQLite does. Copies inherit both.
    await onPostgresServer(server, `create database ${name} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`);
    const db = createDb(databaseOnServer(server, name));
    try {
      await migrateLatest(db);
    } finally {
      await db.destroy();
    }
    process.env[TEMPLATE_VARIABLE.postgres] = name;
    return {
      remove: async () => {
        delete process.env[TEMPLATE_VARIABLE.postgres];
        await onPostgresServer(server, `drop database if exists ${name} with (force)`);
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-template-'));
  const file = path.join(dir, 'rollcall.db');
  const db = createDb(`sqlite:${file}`);
  try {
    await migrateLatest(db);
  } finally {
    // The last connection's close checkpoints the WAL into the file and removes it: the file alone is the database.
    await db.destroy();
  }
  process.env[TEMPLATE_VARIABLE.sqlite] = file;
  return {
    remove: async () => {
      delete process.env[TEMPLATE_VARIABLE.sqlite];
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
