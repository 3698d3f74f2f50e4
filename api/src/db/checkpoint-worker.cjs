'use strict';
/**
 * The checkpointer's thread (db/checkpointer.ts): its own connection to the server's SQLite file, copying the WAL
 * into the database every `intervalMs` with a PASSIVE checkpoint (never waits for the writer or readers, never
 * holds the write lock), so the copy and its fsync run beside the server's JavaScript thread, not on it.
 * Plain JavaScript: a TypeScript worker would load Node's type stripper into this thread too (measured: the
 * thread costs about 15 MB of resident memory as it is, 25 MB as a .ts file).
 */
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');

const { file, intervalMs } = workerData;
const db = new Database(file, { fileMustExist: true });
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let failures = 0;

const timer = setInterval(() => {
  try {
    const { busy, log, checkpointed } = checkpoint.get();
    parentPort.postMessage({ kind: 'checkpoint', busy, log, checkpointed });
    failures = 0;
  } catch (err) {
    // Reported once per run of failures; the server's automatic checkpoint still bounds the WAL meanwhile.
    if (failures++ === 0) parentPort.postMessage({ kind: 'error', message: err.message });
  }
}, intervalMs);

parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.postMessage({ kind: 'stopped' });
});
