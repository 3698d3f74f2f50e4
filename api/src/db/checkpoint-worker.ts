/**
 * The checkpointer's thread (db/checkpointer.ts): its own connection to the server's SQLite file, copying the WAL
 * into the database every `intervalMs` with a PASSIVE checkpoint (never waits for the writer or readers, never
 * holds the write lock), so the copy and its fsync run beside the server's JavaScript thread, not on it.
 */
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

interface Connection {
  exec(sql: string): unknown;
  prepare(sql: string): { get(): unknown };
  close(): void;
}

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3') as new (file: string, options: object) => Connection;
const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const db = new Database(file, { fileMustExist: true });
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let failures = 0;

const timer = setInterval(() => {
  try {
    const { busy, log, checkpointed } = checkpoint.get() as { busy: number; log: number; checkpointed: number };
    parentPort!.postMessage({ kind: 'checkpoint', busy, log, checkpointed });
    failures = 0;
  } catch (err) {
    // Reported once per run of failures; the server's automatic checkpoint still bounds the WAL meanwhile.
    if (failures++ === 0) parentPort!.postMessage({ kind: 'error', message: (err as Error).message });
  }
}, intervalMs);

parentPort!.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort!.postMessage({ kind: 'stopped' });
});
