import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createDb, isSqlite } from '../src/db/connection.ts';
import type { Db } from '../src/db/connection.ts';

/**
 * The database a test app runs on. By default a SQLite file in the test's directory. In the `postgres` vitest
 * project (run when TEST_DATABASE_URL names a PostgreSQL server, as `.ci/run` does), a fresh database on that
 * server, dropped again by `drop()`: the same tests then prove the SQL is portable (PostgreSQL is the
 * scale-out path).
 */
export async function testDatabase(dir: string, options: { encoding?: string; engine?: 'sqlite' | 'postgres' } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const engine = options.engine ?? process.env.ROLLCALL_TEST_ENGINE;
  const server = engine === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  if (!server) return { url: `sqlite:${path.join(dir, 'rollcall.db')}`, drop: async () => {} };
  const name = `rollcall_test_${randomBytes(6).toString('hex')}`;
  const onServer = async (sql: string) => {
    const admin = createDb(server);
    try {
      await admin.raw(sql);
    } finally {
      await admin.destroy();
    }
  };
  // UTF8 whatever the server's default; C collation orders text by bytes, as SQLite does.
  await onServer(`create database ${name} template template0 encoding '${options.encoding ?? 'UTF8'}' lc_collate 'C' lc_ctype 'C'`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(`drop database if exists ${name} with (force)`) };
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
  const source = new URL(url);
  const name = `rollcall_test_${randomBytes(6).toString('hex')}`;
  const server = new URL(url);
  server.pathname = '/postgres';
  const onServer = async (sql: string) => {
    const admin = createDb(server.toString());
    try {
      await admin.raw(sql);
    } finally {
      await admin.destroy();
    }
  };
  await onServer(`create database ${name} template ${source.pathname.slice(1)}`);
  const clone = new URL(url);
  clone.pathname = `/${name}`;
  return { url: clone.toString(), drop: () => onServer(`drop database if exists ${name} with (force)`) };
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
