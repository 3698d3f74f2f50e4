import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoard, seedPlanOrg } from '../../../../test/plan-fixtures.ts';
import { startTaskApp } from '../../../../test/task-fixtures.ts';
import type { TaskApp } from '../../../../test/task-fixtures.ts';

/** GET /v1/plan/activity/: the organization's changes, newest first, as far as the caller sees. */
describe('Plan activity', () => {
  let app: TaskApp;
  beforeAll(async () => {
    app = await startTaskApp();
  });
  afterAll(async () => app.t.close());

  const activity = (query = '', key = app.acme.adminKey) => app.call('GET', `/v1/plan/activity/${query}`, key);
  const actions = async (query = '', key?: string) => (await activity(query, key)).body.results.map((e: { action: string }) => e.action);

  it('lists what changed, newest first, with who and which agent, filtered by board, project, actor, kind and days', async () => {
    const { call, acme, board, t } = app;
    const project = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Roadmap' })).body;
    t.clock.advance(24 * 60 * 60 * 1000);
    const task = await app.tasks.create(board, { title: 'Write docs' }, { 'x-service-agent-name': 'Doc%20bot' });
    await call('PATCH', `/v1/plan/tasks/${task.key}/`, acme.member.key, { title: 'Write the docs' });
    expect(await actions('?page_size=3')).toEqual(['task.updated', 'task.created', 'project_member.created']);
    const [updated, created] = (await activity('?page_size=2')).body.results;
    expect(updated).toMatchObject({
      action: 'task.updated', board: board.uuid, project: null, task: task.uuid, object_kind: 'task', object_uuid: task.uuid, change_kind: 'updated',
      changed_fields: ['title'], snapshot: { title: 'Write the docs' }, actor: { uuid: acme.member.user.uuid, full_name: 'Mia Member' }, agent_name: null, created_at: '2026-03-11T15:00:00.000Z',
    });
    expect(created).toMatchObject({ agent_name: 'Doc bot', actor: { uuid: acme.admin.uuid } });
    expect(await actions(`?board=${board.uuid}&page_size=2`)).toEqual(['task.updated', 'task.created']);
    expect(await actions(`?project=${project.uuid}`)).toEqual(['project_member.created', 'project.created']);
    expect(await actions('?actor=me', acme.member.key)).toEqual(['task.updated']);
    expect(await actions(`?actor=${acme.member.user.uuid}&object_kind=task`)).toEqual(['task.updated']);
    expect(await actions('?object_kind=project')).toEqual(['project.created']);
    expect(await actions('?start_date=2026-03-11&object_kind=task,project')).toEqual(['task.updated', 'task.created']);
    expect(await actions('?until=2026-03-10&object_kind=task,project')).toEqual(['project.created']);
  });

  it('shows nothing of boards and projects the caller does not see, nor of another organization', async () => {
    const { call, acme, t } = app;
    const secret = await createBoard(t, acme.adminKey, { name: 'Secret', key: 'SEC', visibility: 'members' });
    await app.tasks.create(secret.board, { title: 'Hidden' });
    const hidden = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Hidden project', visibility: 'members' })).body;
    const seen = (await activity('?page_size=100', acme.member.key)).body.results;
    expect(seen.filter((e: { board: string | null }) => e.board === secret.board.uuid)).toEqual([]);
    expect(seen.filter((e: { project: string | null }) => e.project === hidden.uuid)).toEqual([]);
    expect((await activity(`?board=${secret.board.uuid}`, acme.member.key)).body.count).toBe(0);
    expect((await activity(`?project=${hidden.uuid}`, acme.member.key)).body.count).toBe(0);
    expect((await activity(`?board=${secret.board.uuid}`)).body.count).toBeGreaterThan(0);
    const globex = await seedPlanOrg(t, { name: 'Globex' });
    expect((await activity('', globex.adminKey)).body.count).toBe(0);
    // A deleted board's row is outside every board stream: admins only.
    const gone = await createBoard(t, acme.adminKey, { name: 'Gone', key: 'GONE' });
    await call('DELETE', `/v1/plan/boards/${gone.board.uuid}/`, acme.adminKey);
    expect(await actions('?object_kind=board&page_size=1')).toEqual(['board.deleted']);
    expect(await actions('?object_kind=board&page_size=1', acme.member.key)).toEqual(['board.created']);
  });

  it('answers 400 for bad filters and actor=me from an agent key', async () => {
    const { acme } = app;
    expect((await activity('?start_date=2026-02-30')).body).toMatchObject({ code: 'invalid_date_range' });
    expect((await activity('?start_date=2026-03-12&end_date=2026-03-11')).body).toMatchObject({ code: 'invalid_date_range', extra: { parameter: 'since' } });
    expect((await activity('?board=nope')).body).toMatchObject({ code: 'invalid_filter_value', extra: { parameter: 'board' } });
    expect((await activity('?actor=someone')).body).toMatchObject({ code: 'invalid_filter_value', extra: { parameter: 'actor' } });
    const agent = await activity('?actor=me', acme.agentKey);
    expect(agent.status).toBe(400);
    expect(agent.body.code).toBe('actor_required');
  });
});
