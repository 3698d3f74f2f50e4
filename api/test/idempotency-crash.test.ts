import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../src/db/connection.ts';
import { testDatabase } from './database.ts';
import { serveProcess } from './serve-process.ts';
import { killed } from './processes.ts';

const KEY = `rk_${'I'.repeat(40)}`;

/**
 * Issue 24, item 10: a process killed while it runs a Plan write with an Idempotency-Key. The key's claim dies with
 * the write's transaction, so the client's retry runs (201) within moments instead of answering 409
 * idempotency_in_progress for up to 120 seconds. PostgreSQL: a request held mid-transaction by a lock the test
 * takes, then SIGKILL. (On SQLite a key is never claimed outside the write's transaction either; one process
 * per file has no twin to race.)
 */
describe.runIf(process.env.ROLLCALL_TEST_ENGINE === 'postgres')('an Idempotency-Key after its process was killed mid-request', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-idem-'));
  const children: ChildProcess[] = [];
  let drop: () => Promise<void> = async () => {};
  afterAll(async () => {
    for (const child of children) await killed(child);
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is free for the retry at once: the retry creates (201), then replays', async () => {
    const database = await testDatabase(dir);
    drop = database.drop;
    const env = { NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, DATABASE_URL: database.url, BOOTSTRAP_API_KEY: KEY };
    const first = await serveProcess(env);
    children.push(first.child);
    const db = createDb(database.url);
    try {
      const org = (await db('organizations').first('uuid'))!;
      await db('organizations').where({ uuid: org.uuid }).update({ plan: 'pro', plan_beta_enabled: true });
      const send = (url: string) =>
        fetch(`${url}/v1/plan/goals/`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json', 'idempotency-key': 'killed-request-1' }, body: JSON.stringify({ name: 'Survive' }) });
      expect((await fetch(`${first.url}/v1/plan/goals/`, { headers: { 'x-api-key': KEY } })).status).toBe(200);

      // Hold the organization's Plan row: the goal's write waits on it, inside its transaction.
      await db('plan_organizations').insert({ organization_uuid: org.uuid, change_seq: 0, created_at: new Date().toISOString() }).onConflict('organization_uuid').ignore();
      const blocker = await db.transaction();
      await blocker('plan_organizations').where({ organization_uuid: org.uuid }).forUpdate().first();
      const pending = send(first.url).catch(() => null);
      for (let i = 0; i < 100; i++) {
        const waiting = await db('pg_stat_activity').where({ datname: db.raw('current_database()'), wait_event_type: 'Lock' }).count({ n: '*' }).first();
        if (Number(waiting!.n) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await killed(first.child);
      expect(await pending).toBeNull();
      await blocker.rollback();

      const second = await serveProcess(env);
      children.push(second.child);
      const began = Date.now();
      let answer = await send(second.url);
      // The killed process's server session ends as soon as it next tries to answer; until then the key is still held.
      while (answer.status === 409 && Date.now() - began < 10_000) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        answer = await send(second.url);
      }
      expect([answer.status, await answer.json()]).toMatchObject([201, { name: 'Survive' }]);
      const replay = await send(second.url);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotency-replayed')).toBe('true');
      expect(await db('plan_goals').where({ name: 'Survive' }).count({ n: '*' }).first()).toEqual({ n: '1' });
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
