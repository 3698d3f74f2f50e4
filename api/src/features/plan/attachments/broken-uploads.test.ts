import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { createBoard, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
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
});
