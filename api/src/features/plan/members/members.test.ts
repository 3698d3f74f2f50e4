import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { createBoard, seedPlanOrg, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';

const NOT_FOUND = { detail: 'Not found.', code: 'not_found' };

/** `PATCH …/members/{user}/` on boards and projects, as the DailyBot client's `member update` sends it. */
describe('Plan member PATCH on boards and projects: the grant row, a role change, refusals', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  beforeEach(async () => ({ t, acme, call } = await startPlanApp()));
  afterEach(async () => t.close());

  it('answers the membership for an empty body, changes the role, and refuses what it must', async () => {
    const { board } = await createBoard(t, acme.adminKey);
    const project = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' })).body;
    for (const base of [`/v1/plan/boards/${board.uuid}`, `/v1/plan/projects/${project.uuid}`]) {
      const added = await call('POST', `${base}/members/`, acme.adminKey, { user: acme.member.user.uuid });
      expect(added.status).toBe(201);
      const path = `${base}/members/${acme.member.user.uuid}/`;
      const same = await call('PATCH', path, acme.adminKey, {});
      expect(same.status).toBe(200);
      const person = { uuid: acme.member.user.uuid, id: acme.member.user.uuid, full_name: 'Mia Member', name: 'Mia Member', is_active: true };
      expect(same.body).toEqual({
        uuid: added.body.uuid, id: added.body.uuid, user: person, role: 'member', created_at: '2026-03-10T15:00:00.000Z',
        subject_type: 'user', user_uuid: acme.member.user.uuid, name: 'Mia Member', team_uuid: null, team_name: null,
      });
      expect((await call('PATCH', path, acme.adminKey, { role: 'manager' })).body).toEqual({ ...same.body, role: 'manager' });
      expect((await call('GET', `${base}/members/`, acme.adminKey)).body.results.find((m: { user_uuid: string }) => m.user_uuid === acme.member.user.uuid).role).toBe('manager');

      expect((await call('PATCH', path, acme.adminKey, { role: 'owner' })).body).toEqual({ role: [expect.any(String)] });
      expect((await call('PATCH', path, acme.adminKey, { role: 'member', team: 'x' })).body.code).toBe('unknown_field');
      // Someone who is not a member: 404; a member who manages nothing: 403; an agent key: 403 insufficient_scope.
      expect((await call('PATCH', `${base}/members/${acme.other.user.uuid}/`, acme.adminKey, {})).body).toEqual(NOT_FOUND);
      expect((await call('PATCH', path, acme.other.key, { role: 'member' })).status).toBe(403);
      expect((await call('PATCH', path, acme.agentKey, {})).body.code).toBe('insufficient_scope');
    }
    // Another organization's board is absent.
    const globex = await seedPlanOrg(t, { name: 'Globex' });
    expect((await call('PATCH', `/v1/plan/boards/${board.uuid}/members/${acme.member.user.uuid}/`, globex.adminKey, {})).body).toEqual(NOT_FOUND);
  });
});
