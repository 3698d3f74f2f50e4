import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../src/db/connection.ts';
import type { Db } from '../src/db/connection.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { sha256Hex } from '../src/lib/secrets.ts';
import { serveProcess } from './serve-process.ts';

const KEY = `rk_${'S'.repeat(40)}`;
const MiB = 1024 * 1024;

/** The server's resident memory, from the kernel (what `ps` shows as RSS). */
const residentBytes = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** Streams `size` bytes of a repeating pattern to `url` with PUT, never holding more than one 64 KiB chunk. */
function putStream(url: string, size: number): Promise<{ status: number; body: string; sha256: string }> {
  const chunk = Buffer.alloc(64 * 1024);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31) % 251;
  const hash = createHash('sha256');
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', headers: { 'content-type': 'text/plain', 'content-length': size } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sha256: hash.digest('hex') }));
    });
    req.on('error', reject);
    let sent = 0;
    const write = () => {
      while (sent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        hash.update(part);
        if (!req.write(part)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

/**
 * A presigned upload of 25 MiB into a real `rollcall serve` process: the body is streamed to the store, so the
 * server's resident memory hardly moves (the spec's attachments are never held whole in memory).
 */
describe('attachment uploads are streamed (a 25 MiB PUT to a running server)', () => {
  let dir: string;
  let child: ChildProcess;
  let url: string;
  let db: Db;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-stream-'));
    ({ child, url } = await serveProcess(
      { NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, BOOTSTRAP_API_KEY: KEY },
      ['--max-semi-space-size=8'],
    ));
    db = createDb(`sqlite:${path.join(dir, 'rollcall.db')}`);
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
    if (child && child.exitCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** What presign writes: a pending attachment of a project and its upload URL (no task endpoint takes presign yet here). */
  async function presigned(size: number): Promise<{ uuid: string; url: string }> {
    const res = await fetch(`${url}/v1/plan/projects/`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify({ name: `P ${uuidv7()}` }) });
    const project = (await res.json()) as { uuid: string };
    const org = (await db('plan_projects').where({ uuid: project.uuid }).first('organization_uuid'))!.organization_uuid;
    const uuid = uuidv7();
    const token = 't'.repeat(43);
    const now = new Date().toISOString();
    await db('plan_attachments').insert({
      uuid, organization_uuid: org, object_kind: 'project', object_uuid: project.uuid, filename: 'big.txt', declared_type: 'text/plain', declared_size: size,
      storage_key: `${org}/${uuid}`, status: 'pending', upload_token_hash: sha256Hex(token), expires_at: new Date(Date.now() + 600_000).toISOString(), created_at: now,
    });
    return { uuid, url: `${url}/v1/uploads/${uuid}/?token=${token}` };
  }

  it('stores and serves 25 MiB while the server\'s resident memory grows by less than 8 MiB', async () => {
    // Warm up: the route, the store and the database paths are loaded and their first allocations made.
    const warm = await presigned(2 * MiB);
    expect((await putStream(warm.url, 2 * MiB)).status).toBe(200);
    const big = await presigned(25 * MiB);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = residentBytes(child.pid!);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(child.pid!))), 5);
    const answer = await putStream(big.url, 25 * MiB);
    clearInterval(sampler);
    peak = Math.max(peak, residentBytes(child.pid!));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ attachment_uuid: big.uuid, status: 'uploaded', size: 25 * MiB, sha256: answer.sha256 });
    // Each PUT writes an object of its own (the row's key and a random suffix) and the row names the one it claimed.
    const key = (await db('plan_attachments').where({ uuid: big.uuid }).first('storage_key'))!.storage_key;
    expect(fs.statSync(path.join(dir, 'attachments', key)).size).toBe(25 * MiB);
    const grew = (peak - before) / MiB;
    console.log(`25 MiB upload: resident memory ${(before / MiB).toFixed(1)} MiB before, ${(peak / MiB).toFixed(1)} MiB at peak (+${grew.toFixed(1)} MiB)`);
    expect(grew).toBeLessThan(8);

    // And back out: the download streams from the store the same way.
    await db('plan_attachments').where({ uuid: big.uuid }).update({ status: 'ready', content_type: 'text/plain; charset=utf-8', file_kind: 'text', confirmed_at: new Date().toISOString() });
    const project = (await db('plan_attachments').where({ uuid: big.uuid }).first('object_uuid'))!.object_uuid;
    const beforeDownload = residentBytes(child.pid!);
    let downloadPeak = beforeDownload;
    const sampling = setInterval(() => (downloadPeak = Math.max(downloadPeak, residentBytes(child.pid!))), 5);
    const download = await fetch(`${url}/v1/plan/projects/${project}/attachments/${big.uuid}/content/`, { headers: { 'x-api-key': KEY } });
    const hash = createHash('sha256');
    for await (const chunk of download.body!) hash.update(chunk);
    clearInterval(sampling);
    expect(hash.digest('hex')).toBe(answer.sha256);
    const downloadGrew = (downloadPeak - beforeDownload) / MiB;
    console.log(`25 MiB download: +${downloadGrew.toFixed(1)} MiB resident`);
    expect(downloadGrew).toBeLessThan(8);
  }, 120_000);
});
