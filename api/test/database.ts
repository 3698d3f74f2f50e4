import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createDb, isSqlite } from '../src/db/connection.ts';
import type { Db } from '../src/db/connection.ts';
import { databaseOnServer, onPostgresServer, templateFor } from './database-template.ts';
import type { TestEngine } from './database-template.ts';

/**
 * The database a test app runs on. By default a SQLite file in the test's directory. In the `postgres` vitest
 * project (run when TEST_DATABASE_URL names a PostgreSQL server, as `.ci/run` does), a fresh database on that
 * server, dropped again by `drop()`: the same tests then prove the SQL is portable (PostgreSQL is the
 * scale-out path). Empty: see migratedTestDatabase for one with the tables made.
 */
export async function testDatabase(dir: string, options: { encoding?: string; engine?: TestEngine } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = postgresServer(options.engine);
  if (!server) return { url: `sqlite:${path.join(dir, 'rollcall.db')}`, drop: async () => {} };
  // UTF8 whatever the server's default; C collation orders text by bytes, as SQLite does.
  return postgresDatabase(server, `template template0 encoding '${options.encoding ?? 'UTF8'}' lc_collate 'C' lc_ctype 'C'`);
}

/**
 * A test database with every migration applied: a copy of this run's template (test/database-template.ts) when
 * there is one, else an empty database the caller migrates (as startAppOnPort always does; on a copy that finds
 * nothing left to apply).
 */
export async function migratedTestDatabase(dir: string, options: { engine?: TestEngine } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = postgresServer(options.engine);
  const template = templateFor(server ? 'postgres' : 'sqlite');
  if (!template) return testDatabase(dir, options);
  if (server) return postgresDatabase(server, `template ${template}`);
  const file = path.join(dir, 'rollcall.db');
  fs.copyFileSync(template, file);
  return { url: `sqlite:${file}`, drop: async () => {} };
}

/** TEST_DATABASE_URL when the test runs on PostgreSQL (the `postgres` project, or `engine` says so). */
function postgresServer(engine: TestEngine | undefined = process.env.ROLLCALL_TEST_ENGINE as TestEngine | undefined): string | undefined {
  return engine === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
}

/** A database of its own on `server`, made with `how` (CREATE DATABASE's options); drop() removes it. */
async function postgresDatabase(server: string, how: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `rollcall_test_${randomBytes(6).toString('hex')}`;
  await onPostgresServer(server, `create database ${name} ${how}`);
  return { url: databaseOnServer(server, name), drop: () => onPostgresServer(server, `drop database if exists ${name} with (force)`) };
}

/**
 * A copy of a test database nobody is connected to (its app closed), as a database of its own: a copy of the
 * SQLite file, or on PostgreSQL a database made from it as a template. drop() removes the copy.
 */
export async function cloneTestDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (url.startsWith('sqlite:')) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-clone-'));
    const file = path.join(dir, 'rollcall.db');
    fs.copyFileSync(url.slice('sqlite:'.length), file);
    return { url: `sqlite:${file}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const server = databaseOnServer(url, 'postgres');
  return postgresDatabase(server, `template ${new URL(url).pathname.slice(1)}`);
}

/** A connection to a fresh test database (in a temporary directory of its own); close() removes it all. */
export async function openTestDatabase(options: { encoding?: string } = {}): Promise<{ db: Db; close: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-db-'));
  const database = await testDatabase(dir, options);
  const db = createDb(database.url);
  return {
    db,
    close: async () => {
      await db.destroy();
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The names of the tables the app created, on either engine (for tests that scan every table). */
export async function tableNames(db: Db): Promise<string[]> {
  const rows = isSqlite(db)
    ? await db('sqlite_master').where({ type: 'table' }).select('name')
    : await db('pg_tables').where({ schemaname: db.raw('current_schema()') }).select('tablename as name');
  return rows.map((row: { name: string }) => row.name);
}
