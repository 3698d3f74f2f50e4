import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { countRows, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
import { PDF, PNG, encodeForm, form, windowsExecutable } from '../../../../test/files.ts';
import { storageUnavailable } from '../../../outbound/files/index.ts';
import type { FileStore } from '../../../outbound/files/index.ts';
import { sweepAttachmentFiles } from './feature.ts';

describe('Plan attachments in one multipart request: projects, goals, project updates (spec attachment_* codes)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  let project: string;
  let base: string;
  beforeEach(async () => {
    ({ t, acme, call } = await startPlanApp());
    project = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' })).body.uuid;
    base = `/v1/plan/projects/${project}/attachments/`;
  });
  afterEach(async () => t.close());

  /** Through the harness (so the exchange can be the operation's OpenAPI example): the form encoded as fetch would send it. */
  const upload = async (pathname: string, key: string, body: FormData, headers: Record<string, string> = {}) => {
    const { raw, contentType } = await encodeForm(body);
    return t.request('POST', pathname, { key, raw, headers: { 'content-type': contentType, ...headers } });
  };
  const stored = () => {
    const root = path.join(t.config.dataDir, 'attachments', acme.org.uuid);
    return fs.existsSync(root) ? fs.readdirSync(root).filter((f) => !f.endsWith('.part')) : [];
  };

  it('stores a file whose content is accepted, and serves it as a download with nosniff', async () => {
    const created = await upload(base, acme.member.key, form({ name: 'screenshot.png', type: 'image/png', bytes: PNG }));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      uuid: created.body.uuid, id: created.body.uuid, object_type: 'project', object_uuid: project, filename: 'screenshot.png', caption: null,
      content_type: 'image/png', kind: 'png', size: PNG.length, sha256: createHash('sha256').update(PNG).digest('hex'), status: 'ready',
      uploaded_by: acme.member.user.uuid, created_at: '2026-03-10T15:00:00.000Z', confirmed_at: '2026-03-10T15:00:00.000Z',
    });
    expect(stored()).toEqual([created.body.uuid]);

    const download = await fetch(`${t.url}${base}${created.body.uuid}/content/`, { headers: { 'x-api-key': acme.other.key } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="screenshot.png"');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('content-length')).toBe(String(PNG.length));
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG);

    // A name with characters outside ASCII, and the sender's own name for it.
    const named = await upload(base, acme.member.key, form({ name: 'x.pdf', type: 'application/pdf', bytes: PDF }, { filename: 'Résumé "final".pdf' }));
    const pdf = await fetch(`${t.url}${base}${named.body.uuid}/content/`, { headers: { 'x-api-key': acme.member.key } });
    expect(pdf.headers.get('content-disposition')).toBe('attachment; filename="Résumé \\"final\\".pdf"');
    const cup = await upload(base, acme.member.key, form({ name: 'x.pdf', type: 'application/pdf', bytes: PDF }, { filename: 'Plan ☕.pdf' }));
    const cupFile = await fetch(`${t.url}${base}${cup.body.uuid}/content/`, { headers: { 'x-api-key': acme.member.key } });
    expect(cupFile.headers.get('content-disposition')).toBe(`attachment; filename="Plan ?.pdf"; filename*=UTF-8''Plan%20%E2%98%95.pdf`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');

    const text = await upload(base, acme.member.key, form({ name: 'notes.md', type: 'application/octet-stream', bytes: Buffer.from('# Notes\n\nCafé ☕\n') }));
    expect(text.body).toMatchObject({ kind: 'markdown', content_type: 'text/markdown; charset=utf-8' });
    const list = await call('GET', base, acme.other.key);
    expect(list.body.results.map((a: { filename: string }) => a.filename)).toEqual(['screenshot.png', 'Résumé "final".pdf', 'Plan ☕.pdf', 'notes.md']);
    expect((await call('GET', `${base}${created.body.uuid}/`, acme.other.key)).body.uuid).toBe(created.body.uuid);
  });

  it('takes the same calls on every kind of object: upload, list, read, download, dry-run delete, delete', async () => {
    const goal = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Grow' });
    const update = await call('POST', `/v1/plan/projects/${project}/updates/`, acme.member.key, { body: 'On track.' });
    const kinds = [base, `/v1/plan/goals/${goal.body.uuid}/attachments/`, `/v1/plan/projects/${project}/updates/${update.body.uuid}/attachments/`];
    for (const files of kinds) {
      const created = await upload(files, acme.member.key, form({ name: 'notes.md', type: 'text/markdown', bytes: Buffer.from('# Notes\n\nShip on Friday.\n') }));
      expect(created.status).toBe(201);
      expect((await call('GET', files, acme.member.key)).body).toMatchObject({ count: 1, results: [{ uuid: created.body.uuid, filename: 'notes.md' }] });
      expect((await call('GET', `${files}${created.body.uuid}/`, acme.member.key)).body).toEqual(created.body);
      const content = await t.request('GET', `${files}${created.body.uuid}/content/`, { key: acme.member.key });
      expect(content.status).toBe(200);
      expect(content.text).toBe('# Notes\n\nShip on Friday.\n');
      const dry = await call('DELETE', `${files}${created.body.uuid}/?dry_run=true`, acme.member.key);
      expect(dry.body).toMatchObject({ dry_run: true, status: 204 });
      expect((await call('DELETE', `${files}${created.body.uuid}/`, acme.member.key)).status).toBe(204);
      expect((await call('GET', files, acme.member.key)).body.count).toBe(0);
    }
  });

  it('refuses a disguised executable, and anything else whose content is not an accepted kind (attachment_invalid_type)', async () => {
    const accepted = ['PNG', 'JPEG', 'GIF', 'WebP', 'PDF', 'plain text', 'Markdown', 'ZIP', 'Word', 'Excel', 'PowerPoint'];
    const exe = await upload(base, acme.member.key, form({ name: 'holiday.png', type: 'image/png', bytes: windowsExecutable() }));
    expect(exe.status).toBe(400);
    expect(exe.body).toEqual({ detail: expect.stringContaining('not accepted'), code: 'attachment_invalid_type', extra: { accepted, detected: 'application/x-msdownload' } });
    const binary = await upload(base, acme.member.key, form({ name: 'notes.txt', type: 'text/plain', bytes: Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe]) }));
    expect(binary.body).toEqual({ detail: expect.any(String), code: 'attachment_invalid_type', extra: { accepted } });
    const svg = await upload(base, acme.member.key, form({ name: 'logo.svg', type: 'image/svg+xml', bytes: Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') }));
    expect(svg.body.code).toBe('attachment_invalid_type');
    // Nothing of them is kept: no attachment, and the files go with the next sweep.
    expect(await countRows(t, 'plan_attachments')).toBe(0);
    await sweepAttachmentFiles(t.deps);
    expect(stored()).toEqual([]);
    expect(await countRows(t, 'plan_file_trash')).toBe(0);
  });

  it('refuses a file over 5 MiB (attachment_too_large, extra.max_size_bytes), a 51st attachment (attachment_limit_reached), and malformed requests', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 'a');
    const tooLarge = await upload(base, acme.member.key, form({ name: 'big.txt', type: 'text/plain', bytes: big }));
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body).toEqual({ detail: expect.any(String), code: 'attachment_too_large', extra: { max_size_bytes: 5242880 } });
    expect((await upload(base, acme.member.key, form({ name: 'exact.txt', type: 'text/plain', bytes: big.subarray(1) }))).status).toBe(201);

    expect((await upload(base, acme.member.key, form(null, { filename: 'x' }))).body).toEqual({ file: ['This field is required.'] });
    expect((await upload(base, acme.member.key, form({ name: 'a.png', type: 'image/png', bytes: PNG }, { color: 'red' }))).body).toMatchObject({ code: 'unknown_field', extra: { parameter: 'color' } });
    expect((await call('POST', base, acme.member.key, { file: 'not multipart' })).body).toEqual({ file: ['Send the file as multipart/form-data, in a part named "file".'] });
    expect((await upload(base, acme.member.key, form({ name: 'a.png', type: 'image/png', bytes: PNG }, {}, [{ field: 'file', name: 'b.png', bytes: PNG }]))).body).toEqual({ file: ['Send one file per request.'] });
    expect(await countRows(t, 'plan_attachments')).toBe(1);

    const now = t.clock.now().toISOString();
    const rows = Array.from({ length: 49 }, (_, i) => ({
      uuid: `0190c8f4-0000-7000-8000-${String(i).padStart(12, '0')}`, organization_uuid: acme.org.uuid, object_kind: 'project', object_uuid: project,
      filename: `f${i}.txt`, storage_key: `${acme.org.uuid}/none-${i}`, status: 'ready' as const, created_at: now, declared_type: 'text/plain',
    }));
    await t.db('plan_attachments').insert(rows);
    const over = await upload(base, acme.member.key, form({ name: 'one-more.png', type: 'image/png', bytes: PNG }));
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ detail: expect.any(String), code: 'attachment_limit_reached', extra: { limit: 50 } });

  });

  it('lets the uploader, the author of what it is on, or an admin remove a file (attachment_delete_forbidden); update files are their author\'s', async () => {
    const created = await upload(base, acme.member.key, form({ name: 'a.png', type: 'image/png', bytes: PNG }));
    const refused = await call('DELETE', `${base}${created.body.uuid}/`, acme.other.key);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: expect.any(String), code: 'attachment_delete_forbidden' });
    expect((await call('DELETE', `${base}${created.body.uuid}/`, acme.member.key)).status).toBe(204);
    const byAdmin = await upload(base, acme.member.key, form({ name: 'b.png', type: 'image/png', bytes: PNG }));
    const dry = await call('DELETE', `${base}${byAdmin.body.uuid}/?dry_run=true`, acme.adminKey);
    expect(dry.body).toMatchObject({ dry_run: true, status: 204, changes: [{ object_kind: 'attachment', change_kind: 'deleted' }] });
    expect(await countRows(t, 'plan_file_trash')).toBe(1);
    expect((await call('DELETE', `${base}${byAdmin.body.uuid}/`, acme.adminKey)).status).toBe(204);
    await sweepAttachmentFiles(t.deps);
    expect(stored()).toEqual([]);

    const update = await call('POST', `/v1/plan/projects/${project}/updates/`, acme.member.key, { body: 'On track.' });
    const updateFiles = `/v1/plan/projects/${project}/updates/${update.body.uuid}/attachments/`;
    const notAuthor = await upload(updateFiles, acme.other.key, form({ name: 'a.png', type: 'image/png', bytes: PNG }));
    expect(notAuthor.status).toBe(403);
    expect(notAuthor.body.code).toBe('update_not_author');
    expect((await upload(updateFiles, acme.member.key, form({ name: 'a.png', type: 'image/png', bytes: PNG }))).status).toBe(201);

    const goal = await call('POST', '/v1/plan/goals/', acme.other.key, { name: 'Grow' });
    const goalFile = await upload(`/v1/plan/goals/${goal.body.uuid}/attachments/`, acme.member.key, form({ name: 'plan.pdf', type: 'application/pdf', bytes: PDF }));
    expect(goalFile.body).toMatchObject({ object_type: 'goal', kind: 'pdf' });
  });

  it('removes the files of a deleted project, its updates\' included, and hides a project the caller may not see', async () => {
    await upload(base, acme.member.key, form({ name: 'a.png', type: 'image/png', bytes: PNG }));
    const update = await call('POST', `/v1/plan/projects/${project}/updates/`, acme.member.key, { body: 'Shipped.' });
    await upload(`/v1/plan/projects/${project}/updates/${update.body.uuid}/attachments/`, acme.member.key, form({ name: 'b.png', type: 'image/png', bytes: PNG }));
    expect(stored()).toHaveLength(2);
    const removed = await call('DELETE', `/v1/plan/projects/${project}/`, acme.adminKey);
    expect(removed.status).toBe(204);
    expect(await countRows(t, 'plan_attachments')).toBe(0);
    expect(await countRows(t, 'plan_changes', (q) => q.where({ object_kind: 'attachment', change_kind: 'deleted' }))).toBe(2);
    expect(await sweepAttachmentFiles(t.deps)).toBe(2);
    expect(stored()).toEqual([]);

    const secret = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Secret', visibility: 'members' });
    const hidden = await upload(`/v1/plan/projects/${secret.body.uuid}/attachments/`, acme.member.key, form({ name: 'a.png', type: 'image/png', bytes: PNG }));
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ detail: 'Not found.', code: 'not_found' });
  });

  it('replays an upload under the same Idempotency-Key (one attachment), and refuses the key with another file', async () => {
    const headers = { 'idempotency-key': 'upload-0000-0001' };
    const first = await upload(base, acme.member.key, form({ name: 'a.png', type: 'image/png', bytes: PNG }), headers);
    const again = await upload(base, acme.member.key, form({ name: 'a.png', type: 'image/png', bytes: PNG }), headers);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await upload(base, acme.member.key, form({ name: 'a.pdf', type: 'application/pdf', bytes: PDF }), headers);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_key_payload_mismatch');
    expect(await countRows(t, 'plan_attachments')).toBe(1);
    await sweepAttachmentFiles(t.deps);
    expect(stored()).toEqual([first.body.uuid]);
  });

  it('answers 410 attachment_content_missing, without Retry-After, when the bytes are gone from the disk for good', async () => {
    const created = await upload(base, acme.member.key, form({ name: 'a.png', type: 'image/png', bytes: PNG }));
    // A data directory restored without its attachments: the row is ready, the file is not there.
    fs.rmSync(path.join(t.config.dataDir, 'attachments', acme.org.uuid, created.body.uuid));
    const gone = await call('GET', `${base}${created.body.uuid}/content/`, acme.member.key);
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual({ detail: "This file's content is no longer in storage (removed from the disk or the bucket); upload it again.", code: 'attachment_content_missing' });
    expect(gone.headers.get('retry-after')).toBeNull();
    // Still listed and removable, so it can be replaced.
    expect((await call('DELETE', `${base}${created.body.uuid}/`, acme.member.key)).status).toBe(204);
  });

  it('answers 503 attachment_storage_unavailable while the store is down', async () => {
    const created = await upload(base, acme.member.key, form({ name: 'a.png', type: 'image/png', bytes: PNG }));
    const working = t.deps.files;
    const down: FileStore = {
      kind: 'disk',
      put: async (_key, stream) => {
        stream.resume();
        throw storageUnavailable();
      },
      open: async () => { throw storageUnavailable(); },
      head: async () => { throw storageUnavailable(); },
      remove: async () => { throw storageUnavailable(); },
    };
    t.deps.files = down;
    try {
      const refused = await upload(base, acme.member.key, form({ name: 'b.png', type: 'image/png', bytes: PNG }));
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ detail: 'File storage is temporarily unavailable; retry later.', code: 'attachment_storage_unavailable' });
      expect(refused.headers.get('retry-after')).toBe('30');
      expect((await call('GET', `${base}${created.body.uuid}/content/`, acme.member.key)).status).toBe(503);
      await call('DELETE', `${base}${created.body.uuid}/`, acme.member.key);
      expect(await sweepAttachmentFiles(t.deps)).toBe(0);
      expect(await countRows(t, 'plan_file_trash')).toBe(2);
    } finally {
      t.deps.files = working;
    }
    expect(await sweepAttachmentFiles(t.deps)).toBe(2);
  });
});
