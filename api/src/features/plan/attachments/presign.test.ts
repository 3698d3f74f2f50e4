import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { countRows, createBoard, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
import { PNG, windowsExecutable } from '../../../../test/files.ts';
import { sweepAttachmentFiles } from './feature.ts';

/** Task files: presign → PUT to upload_url → confirm, through the real routes. */
describe('Plan task attachments: presign, PUT to upload_url, confirm (spec attachment_not_ready, attachment_too_large 25 MiB, attachment_delete_forbidden)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  let task: { uuid: string; key: string };
  let base: string;
  beforeEach(async () => {
    ({ t, acme, call } = await startPlanApp());
    const { board } = await createBoard(t, acme.adminKey);
    task = (await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.member.key, { title: 'Fix the login loop' })).body;
    base = `/v1/plan/tasks/${task.key}/attachments/`;
  });
  afterEach(async () => t.close());

  const plan = (method: string, pathname: string, key: string, body?: unknown) => call(method, pathname, key, body);
  /** upload_url names the server that answered. */
  const put = async (uploadUrl: string, bytes: Buffer, headers: Record<string, string> = {}) => {
    const res = await t.request('PUT', uploadUrl.replace(t.url, ''), { raw: bytes, headers: { 'content-type': 'image/png', ...headers } });
    return { status: res.status, body: res.body };
  };
  const presign = (body: Record<string, unknown> = {}) => plan('POST', `${base}presign/`, acme.member.key, { filename: 'shot.png', content_type: 'image/png', size: PNG.length, ...body });

  it('takes the bytes at upload_url, then confirms them; before that the attachment is not ready (409)', async () => {
    const presigned = await presign();
    expect(presigned.status).toBe(201);
    expect(presigned.body).toEqual({
      attachment_uuid: expect.any(String),
      // On the task's own content path: the one same-origin target the DailyBot client sends bytes to.
      upload_url: `${t.url}/v1/plan/tasks/${task.uuid}/attachments/${presigned.body.attachment_uuid}/content/?token=${presigned.body.upload_url.split('token=')[1]}`,
      method: 'PUT',
      headers: {},
      expires_at: '2026-03-10T15:15:00.000Z',
      max_size_bytes: PNG.length,
      // The reserved file itself, where the DailyBot client's `task attach` reads it (attachment.uuid).
      attachment: expect.objectContaining({ uuid: presigned.body.attachment_uuid, filename: 'shot.png', status: 'pending', object_type: 'task', object_uuid: task.uuid }),
    });
    const uuid = presigned.body.attachment_uuid;
    const early = await plan('POST', `${base}${uuid}/confirm/`, acme.member.key);
    expect(early.status).toBe(409);
    expect(early.body).toEqual({ detail: expect.any(String), code: 'attachment_not_ready' });
    expect((await plan('GET', `${base}${uuid}/content/`, acme.member.key)).body.code).toBe('attachment_not_ready');
    expect((await plan('GET', base, acme.member.key)).body.count).toBe(0);

    const stored = await put(presigned.body.upload_url, PNG);
    expect(stored).toEqual({ status: 200, body: { attachment_uuid: uuid, status: 'uploaded', size: PNG.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    const confirmed = await plan('POST', `${base}${uuid}/confirm/`, acme.member.key);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ uuid, status: 'ready', kind: 'png', content_type: 'image/png', size: PNG.length, filename: 'shot.png' });
    expect((await plan('POST', `${base}${uuid}/confirm/`, acme.member.key)).body).toEqual(confirmed.body);
    const content = await fetch(`${t.url}${base}${uuid}/content/`, { headers: { 'x-api-key': acme.other.key } });
    expect(Buffer.from(await content.arrayBuffer())).toEqual(PNG);
    expect((await call('GET', base, acme.other.key)).body).toMatchObject({ count: 1, results: [{ uuid, object_type: 'task', object_uuid: task.uuid }] });
    expect((await call('GET', `${base}${uuid}/`, acme.other.key)).body).toEqual(confirmed.body);
    expect((await t.request('GET', `${base}${uuid}/content/`, { key: acme.other.key })).headers.get('x-content-type-options')).toBe('nosniff');
    // A confirmed upload's URL is spent.
    expect((await put(presigned.body.upload_url, PNG)).status).toBe(404);
  });

  it('refuses more than 25 MiB at presign, and more bytes than presigned at the PUT (attachment_too_large, extra.max_size_bytes)', async () => {
    const big = await presign({ size: 25 * 1024 * 1024 + 1 });
    expect(big.status).toBe(400);
    expect(big.body).toEqual({ detail: expect.any(String), code: 'attachment_too_large', extra: { max_size_bytes: 26214400 } });
    expect((await presign({ size: 25 * 1024 * 1024 })).status).toBe(201);
    const small = await presign({ size: 10 });
    const over = await put(small.body.upload_url, PNG);
    expect(over).toEqual({ status: 400, body: { detail: expect.any(String), code: 'attachment_too_large', extra: { max_size_bytes: 10 } } });
    // Sent without a length up front (chunked), it is cut off at the limit the same way.
    const chunked = await fetch(small.body.upload_url.replace(t.url, t.url), {
      method: 'PUT', body: new ReadableStream({ start(c) { c.enqueue(new Uint8Array(PNG)); c.close(); } }), duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(400);
    expect(((await chunked.json()) as { code: string }).code).toBe('attachment_too_large');
  });

  it('checks the content at confirm, never the declared type: a disguised executable is refused', async () => {
    const presigned = await presign({ filename: 'cat.png', size: 4096 });
    expect((await put(presigned.body.upload_url, windowsExecutable())).status).toBe(200);
    const refused = await plan('POST', `${base}${presigned.body.attachment_uuid}/confirm/`, acme.member.key);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'attachment_invalid_type', extra: { detected: 'application/x-msdownload' } });
    expect((await presign({ content_type: 'application/x-msdownload' })).body.code).toBe('attachment_invalid_type');
  });

  it('answers 404 for a wrong token or a lapsed URL; lapsed uploads are swept with their files', async () => {
    const presigned = await presign();
    const url = new URL(presigned.body.upload_url);
    url.searchParams.set('token', 'x'.repeat(43));
    expect((await put(url.toString(), PNG)).status).toBe(404);
    expect((await put(presigned.body.upload_url, PNG)).status).toBe(200);
    t.clock.advance(15 * 60_000);
    expect((await put(presigned.body.upload_url, PNG)).body).toEqual({ detail: 'Not found.', code: 'not_found' });
    expect((await plan('POST', `${base}${presigned.body.attachment_uuid}/confirm/`, acme.member.key)).body.code).toBe('attachment_not_ready');
    expect(await sweepAttachmentFiles(t.deps)).toBe(1);
    expect(await countRows(t, 'plan_attachments')).toBe(0);
  });

  it('lets the uploader or an admin remove a task\'s file (attachment_delete_forbidden); deleting the task removes its files', async () => {
    const upload = async () => {
      const presigned = await presign();
      await put(presigned.body.upload_url, PNG);
      return (await plan('POST', `${base}${presigned.body.attachment_uuid}/confirm/`, acme.member.key)).body.uuid as string;
    };
    const first = await upload();
    const refused = await call('DELETE', `${base}${first}/`, acme.other.key);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: expect.any(String), code: 'attachment_delete_forbidden' });
    expect((await call('DELETE', `${base}${first}/?dry_run=true`, acme.adminKey)).body).toMatchObject({ dry_run: true, status: 204 });
    expect((await call('DELETE', `${base}${first}/`, acme.adminKey)).status).toBe(204);
    await upload();
    const unconfirmed = await presign();
    expect((await call('DELETE', `/v1/plan/tasks/${task.key}/`, acme.adminKey)).status).toBe(204);
    expect(await countRows(t, 'plan_attachments', (q) => q.where({ object_uuid: task.uuid, status: 'ready' }))).toBe(0);
    expect(await countRows(t, 'plan_changes', (q) => q.where({ object_kind: 'attachment', change_kind: 'deleted' }))).toBe(2);
    // The pending upload's row and every stored file go with the next sweep.
    expect((await put(unconfirmed.body.upload_url, PNG)).status).toBe(404);
    expect(await sweepAttachmentFiles(t.deps)).toBeGreaterThanOrEqual(2);
    expect(await countRows(t, 'plan_attachments')).toBe(0);
  });
});
