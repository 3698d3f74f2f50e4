import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';
import { TEMPLATES } from '../templates/catalog.ts';

type Role = 'admin' | 'manager' | 'member' | 'guest';
const ROLES: Role[] = ['admin', 'manager', 'member', 'guest'];

/**
 * Every people, team and check-in endpoint called by each role (CONTRACT §3 roles). Everyone takes part in the check-in and
 * belongs to the team, so the table shows what the role allows, not what the person can see.
 */
describe('Role matrix: people, teams and check-ins', () => {
  let t: TestApp;
  let p: People;
  let team: string;
  let checkin: string;
  let questions: string[];
  const key = (role: Role) => (role === 'admin' ? p.adminKey : p[role].key);
  const uuidOf = (role: Role) => (role === 'admin' ? p.admin.uuid : p[role].user.uuid);
  const everyone = () => ({ user_uuids: ROLES.map(uuidOf) });

  beforeAll(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
    team = (await t.request('POST', '/v1/teams/', { key: p.adminKey, body: { name: 'All' } })).body.uuid;
    await t.request('POST', `/v1/teams/${team}/member/`, { key: p.adminKey, body: { members: ROLES.map((r) => ({ uuid: uuidOf(r) })) } });
    const created = (await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: { name: 'Matrix', schedule: { days: [0, 1, 2, 3, 4, 5, 6] }, participants: everyone() } })).body;
    checkin = created.uuid;
    questions = created.questions.map((q: { uuid: string }) => q.uuid);
  });
  afterAll(async () => t.close());

  const newTeam = async () => {
    const uuid = (await t.request('POST', '/v1/teams/', { key: p.adminKey, body: { name: 'Temp' } })).body.uuid;
    await t.request('POST', `/v1/teams/${uuid}/member/`, { key: p.adminKey, body: { members: [...ROLES.map((r) => ({ uuid: uuidOf(r) })), { uuid: p.other.user.uuid }] } });
    return uuid;
  };
  const newCheckin = async () => (await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: { name: 'Temp', participants: everyone() } })).body.uuid;
  const newQuestion = async () => (await t.request('POST', `/v1/checkins/${checkin}/questions/`, { key: p.adminKey, body: { question_type: 'text', question: 'Temp?', required: false } })).body.uuid;

  const cases: { name: string; expect: [number, number, number, number]; call: (role: Role) => Promise<{ method: string; path: string; body?: unknown }> }[] = [
    { name: 'GET /v1/users/', expect: [200, 200, 200, 200], call: async () => ({ method: 'GET', path: '/v1/users/' }) },
    { name: 'GET /v1/users/{other}/', expect: [200, 200, 200, 404], call: async () => ({ method: 'GET', path: `/v1/users/${p.other.user.uuid}/` }) },
    { name: 'PATCH /v1/users/{other}/', expect: [200, 403, 403, 404], call: async () => ({ method: 'PATCH', path: `/v1/users/${p.other.user.uuid}/`, body: { occupation: 'x' } }) },
    { name: 'PATCH /v1/users/{self}/', expect: [200, 200, 200, 200], call: async (r) => ({ method: 'PATCH', path: `/v1/users/${uuidOf(r)}/`, body: { occupation: 'x' } }) },
    { name: 'POST /v1/invite-user/', expect: [201, 201, 403, 403], call: async (r) => ({ method: 'POST', path: '/v1/invite-user/', body: { email: `invited-by-${r}@acme.test` } }) },
    { name: 'GET /v1/teams/', expect: [200, 200, 200, 200], call: async () => ({ method: 'GET', path: '/v1/teams/' }) },
    { name: 'POST /v1/teams/', expect: [201, 201, 403, 403], call: async () => ({ method: 'POST', path: '/v1/teams/', body: { name: 'New' } }) },
    { name: 'GET /v1/teams/{uuid}/', expect: [200, 200, 200, 200], call: async () => ({ method: 'GET', path: `/v1/teams/${team}/` }) },
    { name: 'PATCH /v1/teams/{uuid}/', expect: [200, 200, 403, 403], call: async () => ({ method: 'PATCH', path: `/v1/teams/${team}/`, body: { name: 'All' } }) },
    { name: 'DELETE /v1/teams/{uuid}/', expect: [204, 204, 403, 403], call: async () => ({ method: 'DELETE', path: `/v1/teams/${await newTeam()}/` }) },
    { name: 'GET /v1/teams/{uuid}/members/', expect: [200, 200, 200, 200], call: async () => ({ method: 'GET', path: `/v1/teams/${team}/members/` }) },
    { name: 'POST /v1/teams/{uuid}/member/', expect: [200, 200, 403, 403], call: async () => ({ method: 'POST', path: `/v1/teams/${team}/member/`, body: { members: [{ uuid: p.other.user.uuid }] } }) },
    { name: 'DELETE /v1/teams/{uuid}/member/{user}/', expect: [204, 204, 403, 403], call: async () => ({ method: 'DELETE', path: `/v1/teams/${await newTeam()}/member/${p.other.user.uuid}/` }) },
    { name: 'GET /v1/checkins/', expect: [200, 200, 200, 200], call: async () => ({ method: 'GET', path: '/v1/checkins/?include_summary=true&include_pending_users=true' }) },
    { name: 'GET /v1/followups/', expect: [200, 200, 200, 200], call: async () => ({ method: 'GET', path: '/v1/followups/' }) },
    { name: 'POST /v1/checkins/create/', expect: [201, 201, 403, 403], call: async () => ({ method: 'POST', path: '/v1/checkins/create/', body: { name: 'New' } }) },
    { name: 'GET /v1/checkins/{uuid}/', expect: [200, 200, 200, 200], call: async () => ({ method: 'GET', path: `/v1/checkins/${checkin}/` }) },
    { name: 'GET /v1/checkins/{uuid}/detail/', expect: [200, 200, 200, 200], call: async () => ({ method: 'GET', path: `/v1/checkins/${checkin}/detail/` }) },
    { name: 'PATCH /v1/checkins/{uuid}/config/', expect: [200, 200, 403, 403], call: async () => ({ method: 'PATCH', path: `/v1/checkins/${checkin}/config/`, body: { name: 'Matrix' } }) },
    { name: 'DELETE /v1/checkins/{uuid}/archive/', expect: [204, 204, 403, 403], call: async () => ({ method: 'DELETE', path: `/v1/checkins/${await newCheckin()}/archive/` }) },
    { name: 'POST …/questions/', expect: [201, 201, 403, 403], call: async () => ({ method: 'POST', path: `/v1/checkins/${checkin}/questions/`, body: { question_type: 'text', question: 'More?', required: false } }) },
    { name: 'PATCH …/questions/{q}/', expect: [200, 200, 403, 403], call: async () => ({ method: 'PATCH', path: `/v1/checkins/${checkin}/questions/${questions[0]}/`, body: { short_question: 'Done' } }) },
    { name: 'DELETE …/questions/{q}/delete/', expect: [204, 204, 403, 403], call: async () => ({ method: 'DELETE', path: `/v1/checkins/${checkin}/questions/${await newQuestion()}/delete/` }) },
    {
      name: 'PUT …/questions/reorder/', expect: [200, 200, 403, 403],
      call: async () => {
        const detail = (await t.request('GET', `/v1/checkins/${checkin}/detail/`, { key: p.adminKey })).body;
        return { method: 'PUT', path: `/v1/checkins/${checkin}/questions/reorder/`, body: { question_uuids: detail.questions.map((q: { uuid: string }) => q.uuid).reverse() } };
      },
    },
    { name: 'POST …/responses/', expect: [201, 201, 201, 201], call: async () => ({ method: 'POST', path: `/v1/checkins/${checkin}/responses/`, body: { responses: [{ uuid: questions[0], response: 'done' }], last_question_index: 0 } }) },
    { name: 'PUT …/responses/', expect: [200, 200, 200, 200], call: async () => ({ method: 'PUT', path: `/v1/checkins/${checkin}/responses/`, body: { responses: [{ uuid: questions[1], response: 'next' }] } }) },
    { name: 'GET …/responses/', expect: [200, 200, 200, 200], call: async () => ({ method: 'GET', path: `/v1/checkins/${checkin}/responses/` }) },
    { name: 'DELETE …/responses/', expect: [204, 204, 204, 204], call: async () => ({ method: 'DELETE', path: `/v1/checkins/${checkin}/responses/` }) },
    { name: 'GET /v1/templates/', expect: [200, 200, 200, 200], call: async () => ({ method: 'GET', path: '/v1/templates/' }) },
    { name: 'GET /v1/templates/{uuid}/', expect: [200, 200, 200, 200], call: async () => ({ method: 'GET', path: `/v1/templates/${TEMPLATES[0].uuid}/` }) },
    { name: 'GET /v1/mood/track/', expect: [200, 200, 200, 200], call: async () => ({ method: 'GET', path: '/v1/mood/track/' }) },
    { name: 'POST /v1/mood/track/', expect: [201, 201, 201, 201], call: async () => ({ method: 'POST', path: '/v1/mood/track/', body: { score: 3 } }) },
  ];

  it('answers each role as the contract says, on every endpoint', async () => {
    const table: string[] = [];
    let ok = true;
    for (const c of cases) {
      const got: number[] = [];
      for (const role of ROLES) {
        const { method, path, body } = await c.call(role);
        got.push((await t.request(method, path, { key: key(role), body })).status);
      }
      if (got.join() !== c.expect.join()) ok = false;
      table.push(`${c.name.padEnd(42)} expected ${c.expect.join(' ')}  got ${got.join(' ')}`);
    }
    expect(ok, table.join('\n')).toBe(true);
  });

  it('answers 401 without a credential on every endpoint', async () => {
    for (const c of cases) {
      const { method, path, body } = await c.call('admin');
      const res = await t.request(method, path, { body });
      expect(res.status, c.name).toBe(401);
      expect(res.body.code).toBe('credential_absent');
    }
  });
});
