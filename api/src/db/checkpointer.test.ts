import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from './connection.ts';
import type { Db } from './connection.ts';
import { SAFETY_NET_PAGES, startCheckpointer } from './checkpointer.ts';
import type { CheckpointResult } from './checkpointer.ts';

const PAGE = 4096;

/**
 * The WAL checkpointer (a worker thread with its own connection) copies the WAL into the database while the
 * server's connection only commits, and the WAL starts over once a checkpoint has caught up: bursts of writes
 * reuse the same WAL pages instead of growing the file to the automatic checkpoint's raised threshold.
 */
describe('WAL checkpointer', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function database(): Promise<{ db: Db; file: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-checkpointer-'));
    dirs.push(dir);
    const file = path.join(dir, 'rollcall.db');
    const db = createDb(`sqlite:${file}`);
    await db.raw('create table blobs (id integer primary key, data blob not null)');
    return { db, file };
  }

  /** A burst of 150 commits of about 10 pages each: 1,500 WAL pages, more than the default threshold of 1,000. */
  async function burst(db: Db): Promise<void> {
    for (let i = 0; i < 150; i++) await db.transaction(async (trx) => trx('blobs').insert({ data: randomBytes(40_000) }));
  }

  const walPages = (file: string) => fs.statSync(`${file}-wal`).size / PAGE;
  const autocheckpoint = async (db: Db) => Object.values((await db.raw('pragma wal_autocheckpoint'))[0] as object)[0];

  async function until(seen: CheckpointResult[], ok: (r: CheckpointResult) => boolean): Promise<CheckpointResult> {
    const from = seen.length;
    for (let waited = 0; waited < 10_000; waited += 10) {
      const found = seen.slice(from).find(ok);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no such checkpoint in 10 s: ${JSON.stringify(seen.slice(-3))}`);
  }

  it('checkpoints from its own thread; the WAL starts over after it caught up, so bursts reuse the same pages', async () => {
    const { db, file } = await database();
    const seen: CheckpointResult[] = [];
    const checkpointer = await startCheckpointer(db, file, { intervalMs: 20, onCheckpoint: (result) => seen.push(result) });
    expect(await autocheckpoint(db)).toBe(SAFETY_NET_PAGES);

    await burst(db);
    // The server's connection does not checkpoint below its raised threshold: the worker copies the burst's pages.
    const caughtUp = await until(seen, (r) => r.log > 0 && r.checkpointed === r.log);
    expect(caughtUp.busy).toBe(0);
    // The next commit starts the WAL over (unless it met the worker between two locks: then one of the next few).
    let restarted = false;
    for (let i = 0; i < 20 && !restarted; i++) {
      await db('blobs').insert({ data: randomBytes(100) });
      restarted = (await until(seen, () => true)).log < 100;
    }
    expect(restarted).toBe(true);

    await burst(db);
    await until(seen, (r) => r.log > 0 && r.checkpointed === r.log);
    // Two bursts of 1,500 pages, one WAL of about 1,500: the second wrote over the first's pages.
    expect(walPages(file)).toBeLessThan(2000);
    await checkpointer.stop();
    expect(await autocheckpoint(db)).toBe(1000);
    expect(Number((await db('blobs').count({ n: '*' }))[0].n)).toBeGreaterThan(300);
    await db.destroy();
  });

  it('without it, the same bursts under the raised threshold grow the WAL to hold both of them (the threshold is a safety net)', async () => {
    const { db, file } = await database();
    await db.raw(`pragma wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
    await burst(db);
    await db('blobs').insert({ data: randomBytes(100) });
    await burst(db);
    expect(walPages(file)).toBeGreaterThan(2500);
    await db.destroy();
  });
});
