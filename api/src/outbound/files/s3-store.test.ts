import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import { seedPlanOrg } from '../../../test/plan-fixtures.ts';
import { PNG, form } from '../../../test/files.ts';
import { S3Store } from './s3-store.ts';

/**
 * The S3 store against s3rver, a local S3 stand-in (path-style requests signed with SigV4, PutObject, ranged
 * GetObject, DeleteObject; what Rollcall uses of S3). What it cannot show: a real provider's consistency, multipart
 * limits or error variety beyond "the store did not answer".
 */
describe('S3-compatible attachment store (ATTACHMENT_STORAGE=s3)', () => {
  let dir: string;
  let server: S3rver;
  let endpoint: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-s3-'));
    server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(dir, 'buckets'), configureBuckets: [{ name: 'rollcall', configs: [] }] });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await server.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const settings = () => ({ bucket: 'rollcall', endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });

  it('stores, reads, reads the first bytes of, and removes a file; the spool is left empty', async () => {
    const spool = path.join(dir, 'spool');
    const store = new S3Store(settings(), spool);
    const bytes = Buffer.alloc(200_000, 7);
    const put = await store.put('org/one', Readable.from([bytes.subarray(0, 100_000), bytes.subarray(100_000)]));
    expect(put.size).toBe(200_000);
    expect(put.head.length).toBe(64 * 1024);
    expect(await store.head('org/one', 10)).toEqual(bytes.subarray(0, 10));
    const { stream, size } = await store.open('org/one');
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(size).toBe(200_000);
    expect(Buffer.concat(chunks)).toEqual(bytes);
    await store.remove('org/one');
    // Gone from the bucket is permanent (410), not the store being down (503, retry later).
    await expect(store.open('org/one')).rejects.toMatchObject({ status: 410, code: 'attachment_content_missing' });
    await expect(store.head('org/one', 10)).rejects.toMatchObject({ status: 410, code: 'attachment_content_missing' });
    expect(fs.readdirSync(spool)).toEqual([]);
  });

  it('serves uploads and downloads through the app, and answers 503 attachment_storage_unavailable when the store is down', async () => {
    const t = await startTestApp({}, { ATTACHMENT_STORAGE: 's3', S3_BUCKET: 'rollcall', S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
    try {
      expect(t.deps.files.kind).toBe('s3');
      const acme = await seedPlanOrg(t);
      const project = (await t.request('POST', '/v1/plan/projects/', { key: acme.adminKey, body: { name: 'Launch' } })).body.uuid;
      const base = `${t.url}/v1/plan/projects/${project}/attachments/`;
      const created = await fetch(base, { method: 'POST', headers: { 'x-api-key': acme.member.key }, body: form({ name: 'a.png', type: 'image/png', bytes: PNG }) });
      expect(created.status).toBe(201);
      const { uuid } = (await created.json()) as { uuid: string };
      const download = await fetch(`${base}${uuid}/content/`, { headers: { 'x-api-key': acme.member.key } });
      expect(download.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG);

      // A store that does not answer: nothing listens on this port any more.
      const down = new S3Store({ ...settings(), endpoint: 'http://127.0.0.1:9' }, path.join(dir, 'spool-down'));
      t.deps.files = down;
      const refused = await fetch(base, { method: 'POST', headers: { 'x-api-key': acme.member.key }, body: form({ name: 'b.png', type: 'image/png', bytes: PNG }) });
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual({ detail: 'File storage is temporarily unavailable; retry later.', code: 'attachment_storage_unavailable' });
      const unavailable = await fetch(`${base}${uuid}/content/`, { headers: { 'x-api-key': acme.member.key } });
      expect(unavailable.status).toBe(503);
    } finally {
      await t.close();
    }
  });
});
