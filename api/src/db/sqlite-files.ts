import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import knex from 'knex';
import type { Db } from './connection.ts';
import { isSqlite } from './connection.ts';

const require = createRequire(import.meta.url);
type SqliteDatabase = {
  exec(sql: string): unknown;
  pragma(sql: string, options?: { simple: boolean }): unknown;
  backup(file: string): Promise<unknown>;
  close(): void;
};
const openFile = (file: string, options: { readonly?: boolean; fileMustExist?: boolean; timeout?: number } = {}): SqliteDatabase => {
  const Database = require('better-sqlite3') as new (file: string, options: object) => SqliteDatabase;
  return new Database(file, options);
};

/**
 * SQLite database files as whole units: an online backup into one self-contained file, a read-only look at a
 * backup, and a restore that refuses a database another process has open.
 */
export class DatabaseInUseError extends Error {}

/** Online backup of the live database into `file` (consistent while the server keeps writing), as one file. */
export async function backupSqlite(db: Db, file: string): Promise<void> {
  if (!isSqlite(db)) throw new Error('backup is for SQLite databases; use pg_dump for PostgreSQL');
  const conn = (await db.client.acquireConnection()) as SqliteDatabase;
  try {
    await conn.backup(path.resolve(file));
  } finally {
    await db.client.releaseConnection(conn);
  }
  // The copy keeps the live database's WAL mode; a backup is one file, with nothing beside it.
  const copy = openFile(file, { fileMustExist: true });
  try {
    copy.exec('PRAGMA journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** A backup file opened read-only through Knex, for queries; the caller destroys it. */
export function openSqliteReadOnly(file: string): Db {
  return knex({ client: 'better-sqlite3', connection: { filename: file, options: { readonly: true } }, useNullAsDefault: true, pool: { min: 1, max: 1 } });
}

/** `PRAGMA quick_check` of a database file: null when it is sound, else SQLite's first complaint. */
export function checkSqliteFile(file: string): string | null {
  let database: SqliteDatabase;
  try {
    database = openFile(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    return (err as Error).message;
  }
  try {
    const result = database.pragma('quick_check', { simple: true });
    return result === 'ok' ? null : String(result);
  } catch (err) {
    return (err as Error).message;
  } finally {
    database.close();
  }
}

/**
 * Throws DatabaseInUseError when another process has `file` open. In WAL mode every open connection holds a
 * shared lock on the database's shared memory, so an exclusive lock is granted only when nobody else is there.
 */
export function assertNotInUse(file: string): void {
  if (!fs.existsSync(file)) return;
  const database = openFile(file, { fileMustExist: true, timeout: 0 });
  try {
    database.exec('PRAGMA locking_mode = EXCLUSIVE');
    database.exec('BEGIN EXCLUSIVE');
    database.exec('COMMIT');
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DatabaseInUseError(`${file} is in use by another process (is the server running?)`);
    throw err;
  } finally {
    database.close();
  }
}

/**
 * Puts a copy of the database file `source` at `target`, replacing what is there: copied beside the target first,
 * checked, then renamed over it, so a failure leaves the old database in place. The target's WAL files go first:
 * left beside the new file they would be replayed into it.
 */
export async function restoreSqliteFile(source: string, target: string): Promise<void> {
  assertNotInUse(target);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const staging = `${target}.restoring`;
  fs.rmSync(staging, { force: true });
  const from = openFile(source, { readonly: true, fileMustExist: true });
  try {
    await from.backup(staging);
  } finally {
    from.close();
  }
  const problem = checkSqliteFile(staging);
  if (problem) {
    fs.rmSync(staging, { force: true });
    throw new Error(`the restored copy fails SQLite's check: ${problem}`);
  }
  for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(`${target}${suffix}`, { force: true });
  fs.renameSync(staging, target);
}

/**
 * Makes this process the one server of the SQLite database `file` until it exits: an exclusive lock on a small
 * file beside it (`<file>.lock`), taken through SQLite so the operating system releases it when the process
 * ends, however it ends. Throws DatabaseInUseError when another server holds it. `rollcall admin` commands do
 * not take it: they may run beside the server (the busy timeout orders their writes).
 */
export function holdSqliteServer(file: string): { release(): void } {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const lock = openFile(`${file}.lock`, { timeout: 0 });
  try {
    lock.exec('PRAGMA locking_mode = EXCLUSIVE');
    // A write takes the exclusive lock, which EXCLUSIVE locking mode then keeps until the connection closes.
    lock.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS server (pid INTEGER); DELETE FROM server; COMMIT');
    lock.exec(`INSERT INTO server (pid) VALUES (${process.pid})`);
  } catch (err) {
    lock.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DatabaseInUseError(`another rollcall server is using ${file}`);
    throw err;
  }
  return { release: () => lock.close() };
}
