import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { createBoard, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
import { createHash } from 'node:crypto';
import { PNG, encodeForm, form } from '../../../../test/files.ts';

/** Uploads that break off or race each other (issue 24, items 3 and 4). */
describe('Plan uploads cut off on the way in', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  beforeEach(async () => {
    ({ t, acme, call } = await startPlanApp());
  });
  afterEach(async () => t.close());

  it('answers 400 on all four multipart upload operations when the form ends before its closing boundary', async () => {
    const project = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' })).body.uuid;
    const goal = (await call('POST', '/v1/plan/goals/', acme.adminKey, { name: 'Grow' })).body.uuid;
    const update = (await call('POST', `/v1/plan/projects/${project}/updates/`, acme.member.key, { body: 'On track.' })).body.uuid;
    const { board } = await createBoard(t, acme.adminKey);
    const task = (await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.member.key, { title: 'Fix it' })).body;
    const comment = (await call('POST', `/v1/plan/tasks/${task.key}/comments/`, acme.member.key, { body: 'See the screenshot.' })).body.uuid;
    const paths = [
      `/v1/plan/projects/${project}/attachments/`,
      `/v1/plan/goals/${goal}/attachments/`,
      `/v1/plan/projects/${project}/updates/${update}/attachments/`,
      `/v1/plan/tasks/${task.key}/comments/${comment}/attachments/`,
    ];
    const { raw, contentType } = await encodeForm(form({ name: 'a.png', type: 'image/png', bytes: Buffer.concat([PNG, Buffer.alloc(4000, 1)]) }, { filename: 'a.png' }));
    for (const cut of [raw.length - 10, Math.floor(raw.length / 2), 40]) {
      for (const pathname of paths) {
        const res = await t.request('POST', pathname, { key: acme.member.key, raw: raw.subarray(0, cut), headers: { 'content-type': contentType } });
        expect({ pathname, cut, status: res.status }).toEqual({ pathname, cut, status: 400 });
        expect(res.body).toEqual({ file: ['Send the file as multipart/form-data, in a part named "file".'] });
      }
    }
    expect(await t.db('plan_attachments').count({ n: '*' }).first()).toEqual({ n: expect.anything() });
    expect(Number((await t.db('plan_attachments').count({ n: '*' }).first())!.n)).toBe(0);
  });

  it('takes one completed upload per token: a second PUT still streaming while the first is confirmed replaces nothing (404)', async () => {
    const { board } = await createBoard(t, acme.adminKey);
    const task = (await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.member.key, { title: 'Fix it' })).body;
    const base = `/v1/plan/tasks/${task.key}/attachments/`;
    const html = Buffer.alloc(1024 * 1024, '<html><script>alert(1)</script></html>');
    const presigned = await call('POST', `${base}presign/`, acme.member.key, { filename: 'shot.png', content_type: 'image/png', size: html.length });
    const uuid = presigned.body.attachment_uuid as string;

    // The second PUT starts first and keeps streaming.
    let feed!: ReadableStreamDefaultController<Uint8Array>;
    const slow = fetch(presigned.body.upload_url, {
      method: 'PUT', headers: { 'content-type': 'image/png' }, duplex: 'half',
      body: new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) }),
    } as RequestInit);
    feed.enqueue(new Uint8Array(html.subarray(0, 64 * 1024)));
    await new Promise((resolve) => setTimeout(resolve, 50));

    const quick = await fetch(presigned.body.upload_url, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: new Uint8Array(PNG) });
    expect(quick.status).toBe(200);
    const confirmed = await call('POST', `${base}${uuid}/confirm/`, acme.member.key);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: 'ready', kind: 'png', size: PNG.length, sha256: createHash('sha256').update(PNG).digest('hex') });

    feed.enqueue(new Uint8Array(html.subarray(64 * 1024)));
    feed.close();
    const late = await slow;
    expect(late.status).toBe(404);
    expect(await late.json()).toEqual({ detail: 'Not found.', code: 'not_found' });

    const served = await fetch(`${t.url}${base}${uuid}/content/`, { headers: { 'x-api-key': acme.member.key } });
    expect(served.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes).toEqual(PNG);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(confirmed.body.sha256);
    // Once an upload completed, the token is spent even before confirm.
    const again = await call('POST', `${base}presign/`, acme.member.key, { filename: 'b.png', content_type: 'image/png', size: PNG.length });
    expect((await fetch(again.body.upload_url, { method: 'PUT', body: new Uint8Array(PNG) })).status).toBe(200);
    expect((await fetch(again.body.upload_url, { method: 'PUT', body: new Uint8Array(PNG) })).status).toBe(404);
  });
});
