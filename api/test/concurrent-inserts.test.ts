import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestResponse } from './harness.ts';
import { createBoard, startPlanApp } from './plan-fixtures.ts';
import type { PlanCall, PlanOrg } from './plan-fixtures.ts';

/** Requests waiting their turn hold or wait for a pooled connection: on a loaded test machine 5 s is not always enough. */
const SLOW_MACHINE = { DATABASE_CONNECT_TIMEOUT_MS: '30000' };

/**
 * Concurrent identical inserts (issue 24, item 6). SQLite runs one transaction at a time, so 20 identical
 * requests sent at once answer as 20 sent one after another: the first creates, the others get the idempotent
 * answer or the refusal. On PostgreSQL they used to race past each other's checks and hit a unique index (500).
 * Each case sends 20 requests one after another to one fresh target and 20 at once to another, and wants the
 * same answers (as a multiset) and the same rows.
 */
const N = 20;


describe('20 identical writes at once answer as 20 in a row (no 500 from a unique index)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  let n = 0;
  beforeAll(async () => {
    ({ t, acme, call } = await startPlanApp({}, { PLAN_RATE_LIMIT_WRITES: '100000', PLAN_RATE_LIMIT_READS: '100000', RATE_LIMIT_WRITES: '100000', RATE_LIMIT_AGENT: '100000', ...SLOW_MACHINE }));
  });
  afterAll(async () => t.close());

  const statuses = (answers: TestResponse[]) => answers.map((a) => a.status).sort();
  /** `send` on a fresh target, N times in a row and N times at once; both must answer alike. */
  async function sameAsSerial(fresh: () => Promise<() => Promise<TestResponse>>): Promise<TestResponse[]> {
    const serial = await fresh();
    const inRow: TestResponse[] = [];
    for (let i = 0; i < N; i++) inRow.push(await serial());
    const parallel = await fresh();
    const atOnce = await Promise.all(Array.from({ length: N }, () => parallel()));
    expect(atOnce.filter((a) => a.status >= 500).map((a) => a.text)).toEqual([]);
    expect(statuses(atOnce)).toEqual(statuses(inRow));
    return atOnce;
  }

  const project = async () => (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: `P${++n}` })).body.uuid as string;
  const task = async () => {
    const { board } = await createBoard(t, acme.adminKey, { name: `B${++n}`, key: `B${n}` });
    return { board, task: (await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.member.key, { title: 'T' })).body };
  };

  it('comment and project-update reactions', async () => {
    await sameAsSerial(async () => {
      const { task: tk } = await task();
      const comment = (await call('POST', `/v1/plan/tasks/${tk.key}/comments/`, acme.member.key, { body: 'c' })).body.uuid;
      return () => call('POST', `/v1/plan/tasks/${tk.key}/comments/${comment}/reactions/`, acme.other.key, { emoji: '👍' });
    });
    await sameAsSerial(async () => {
      const p = await project();
      const update = (await call('POST', `/v1/plan/projects/${p}/updates/`, acme.member.key, { body: 'u' })).body.uuid;
      return () => call('POST', `/v1/plan/projects/${p}/updates/${update}/reactions/`, acme.other.key, { emoji: '🎉' });
    });
  });

  it('favorites', async () => {
    await sameAsSerial(async () => {
      const p = await project();
      return () => call('POST', '/v1/plan/me/favorites/', acme.member.key, { object_type: 'project', object_uuid: p });
    });
  });

  it('board, project and team members', async () => {
    await sameAsSerial(async () => {
      const { board } = await task();
      return () => call('POST', `/v1/plan/boards/${board.uuid}/members/`, acme.adminKey, { user: acme.other.user.uuid });
    });
    await sameAsSerial(async () => {
      const p = await project();
      return () => call('POST', `/v1/plan/projects/${p}/members/`, acme.adminKey, { user: acme.other.user.uuid });
    });
    await sameAsSerial(async () => {
      const team = (await t.request('POST', '/v1/teams/', { key: acme.adminKey, body: { name: `Team ${++n}` } })).body.uuid;
      return () => t.request('POST', `/v1/teams/${team}/member/`, { key: acme.adminKey, body: { members: [{ uuid: acme.other.user.uuid }] } });
    });
    const teams = await t.db('team_members').count({ n: '*' }).first();
    expect(Number(teams!.n)).toBeGreaterThan(0);
  });

  it('company values and mood', async () => {
    await sameAsSerial(async () => {
      const value = `Value ${++n}`;
      return () => t.request('POST', '/v1/company-values/', { key: acme.adminKey, body: { value } });
    });
    await sameAsSerial(async () => {
      const person = await t.seedUser(acme.org.uuid, { role: 'member' });
      return () => t.request('POST', '/v1/mood/track/', { key: person.key, body: { score: 4 } });
    });
  });

  it('the first report of a new agent name', async () => {
    const answers = await sameAsSerial(async () => {
      const agent = `agent-${++n}`;
      return () => t.request('POST', '/v1/agent-reports/', { key: acme.adminKey, body: { agent_name: agent, content: 'Deployed.' } });
    });
    expect(new Set(answers.map((a) => a.body.agent?.uuid ?? a.body.agent_uuid)).size).toBeLessThanOrEqual(1);
    const agents = await t.db('agents').where({ organization_uuid: acme.org.uuid }).select('name');
    expect(agents.length).toBe(new Set(agents.map((a) => a.name)).size);
  });
});
