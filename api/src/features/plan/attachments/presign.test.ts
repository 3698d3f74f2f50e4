import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { countRows, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
import { PNG, windowsExecutable } from '../../../../test/files.ts';
import { serveTestResources } from '../../../../test/plan-test-resource.ts';
import { projectAttachments } from './kinds.ts';
import { attachmentResource } from './kind-routes.ts';
import { sweepAttachmentFiles } from './feature.ts';

/**
 * presign → PUT to upload_url → confirm, the way tasks take files, served here for projects through the real frame
 * (a resource of the test's own: projects take single multipart requests in the API).
 */
describe('Plan attachments: presign, PUT to upload_url, confirm (spec attachment_not_ready, attachment_too_large 25 MiB)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  let served: Awaited<ReturnType<typeof serveTestResources>>;
  let base: string;
  beforeEach(async () => {
    ({ t, acme, call } = await startPlanApp());
    served = await serveTestResources(t.deps, attachmentResource(projectAttachments, { presign: true }));
    const project = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' })).body.uuid;
    base = `/v1/plan/projects/${project}/attachments/`;
  });
  afterEach(async () => {
    await served.close();
    await t.close();
  });

  const plan = async (method: string, pathname: string, key: string, body?: unknown) => {
    const res = await fetch(`${served.url}${pathname}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, bytes: text };
  };
  /** upload_url names the server that answered; the PUT route is the app's. */
  const put = async (uploadUrl: string, bytes: Buffer, headers: Record<string, string> = {}) => {
    const res = await t.request('PUT', uploadUrl.replace(served.url, ''), { raw: bytes, headers: { 'content-type': 'image/png', ...headers } });
    return { status: res.status, body: res.body };
  };
  const presign = (body: Record<string, unknown> = {}) => plan('POST', `${base}presign/`, acme.member.key, { filename: 'shot.png', content_type: 'image/png', size: PNG.length, ...body });

  it('takes the bytes at upload_url, then confirms them; before that the attachment is not ready (409)', async () => {
    const presigned = await presign();
    expect(presigned.status).toBe(201);
    expect(presigned.body).toEqual({
      attachment_uuid: expect.any(String),
      upload_url: `${served.url}/v1/uploads/${presigned.body.attachment_uuid}/?token=${presigned.body.upload_url.split('token=')[1]}`,
      expires_at: '2026-03-10T15:15:00.000Z',
      max_size_bytes: PNG.length,
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
    const content = await fetch(`${served.url}${base}${uuid}/content/`, { headers: { 'x-api-key': acme.other.key } });
    expect(Buffer.from(await content.arrayBuffer())).toEqual(PNG);
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
    const chunked = await fetch(small.body.upload_url.replace(served.url, t.url), {
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
});
