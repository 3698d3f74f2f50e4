import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoard, seedPlanOrg } from '../../../../test/plan-fixtures.ts';
import { startTaskApp } from '../../../../test/task-fixtures.ts';
import type { TaskApp } from '../../../../test/task-fixtures.ts';

/** GET /v1/plan/search/: tasks, boards and projects, by words kept current in the writing transaction. */
describe('Plan search', () => {
  let app: TaskApp;
  beforeAll(async () => {
    app = await startTaskApp();
  });
  afterAll(async () => app.t.close());

  const search = (query: string, key = app.acme.adminKey) => app.call('GET', `/v1/plan/search/?${query}`, key);
  const found = async (query: string, key?: string) => (await search(query, key)).body.results.map((r: { type: string; title: string }) => `${r.type}:${r.title}`);

  it('finds projects, then boards, then tasks whose words start with every word searched', async () => {
    const { call, acme, board, t } = app;
    const project = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Deployment pipeline', description: 'Ship faster' })).body;
    const deploy = await createBoard(t, acme.adminKey, { name: 'Deploys', key: 'DEPL', description: 'Everything about shipping', project: project.uuid });
    const task = await app.tasks.create(board, { title: 'Deploy failed on Friday', description: 'Rollback needed' });
    t.clock.advance(1000);
    const later = await app.tasks.create(deploy.board, { title: 'Deployment checklist' });
    await app.tasks.create(board, { title: 'Unrelated' });
    expect(await found('q=deplo')).toEqual(['project:Deployment pipeline', 'board:Deploys', 'task:Deployment checklist', 'task:Deploy failed on Friday']);
    expect(await found('q=deplo%20fri')).toEqual(['task:Deploy failed on Friday']);
    expect(await found('q=ROLLBACK')).toEqual(['task:Deploy failed on Friday']);
    expect(await found('q=ship')).toEqual(['project:Deployment pipeline', 'board:Deploys']);
    expect(await found('q=depl&type=board,project')).toEqual(['project:Deployment pipeline', 'board:Deploys']);
    // A KEY-n finds its task (and a board key its board).
    expect(await found(`q=${task.key}`)).toEqual([`task:${task.title}`]);
    const res = await search('q=checklist');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      count: 1, next: null, previous: null,
      results: [{ type: 'task', uuid: later.uuid, id: later.uuid, key: later.key, title: 'Deployment checklist', board: deploy.board.uuid, project: project.uuid, is_archived: false, updated_at: later.updated_at, object: later }],
    });
    const [projectHit] = (await search('q=pipeline')).body.results;
    expect(projectHit).toMatchObject({ type: 'project', key: null, board: null, project: project.uuid, object: { uuid: project.uuid, name: 'Deployment pipeline' } });
    // Paged across kinds.
    const page = await search('q=deplo&page_size=2&page=2');
    expect(page.body.count).toBe(4);
    expect(page.body.results.map((r: { title: string }) => r.title)).toEqual(['Deployment checklist', 'Deploy failed on Friday']);
  });

  it('keeps the index current in the writing transaction: renames, new descriptions, archive and delete', async () => {
    const { call, acme, board, t } = app;
    const task = await app.tasks.create(board, { title: 'Quokka sighting' });
    expect(await found('q=quokka')).toEqual(['task:Quokka sighting']);
    await call('PATCH', `/v1/plan/tasks/${task.key}/`, acme.adminKey, { title: 'Wombat sighting' });
    expect(await found('q=quokka')).toEqual([]);
    expect(await found('q=wombat')).toEqual(['task:Wombat sighting']);
    await call('POST', `/v1/plan/tasks/${task.key}/archive/`, acme.adminKey);
    expect(await found('q=wombat')).toEqual([]);
    expect(await found('q=wombat&include_archived=true')).toEqual(['task:Wombat sighting']);
    await call('DELETE', `/v1/plan/tasks/${task.key}/`, acme.adminKey);
    expect(await found('q=wombat&include_archived=true')).toEqual([]);
    const zoo = await createBoard(t, acme.adminKey, { name: 'Zoo', key: 'ZOO' });
    await call('PATCH', `/v1/plan/boards/${zoo.board.uuid}/`, acme.adminKey, { description: 'Platypus enclosure' });
    expect(await found('q=platypus')).toEqual(['board:Zoo']);
    await call('DELETE', `/v1/plan/boards/${zoo.board.uuid}/`, acme.adminKey);
    expect(await found('q=platypus&include_archived=true')).toEqual([]);
    const project = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Narwhal' })).body;
    await call('PATCH', `/v1/plan/projects/${project.uuid}/`, acme.adminKey, { name: 'Beluga' });
    expect(await found('q=narwhal')).toEqual([]);
    expect(await found('q=beluga')).toEqual(['project:Beluga']);
    // A refused write leaves the index as it was.
    const other = await app.tasks.create(board, { title: 'Capybara' });
    expect((await call('PATCH', `/v1/plan/tasks/${other.key}/`, acme.adminKey, { title: 'Tapir', version: 99 })).status).toBe(409);
    expect(await found('q=tapir')).toEqual([]);
  });

  it('shows only what the caller sees: members-only boards and projects, another organization', async () => {
    const { call, acme, t } = app;
    const secret = await createBoard(t, acme.adminKey, { name: 'Secret aardvark', key: 'AARD', visibility: 'members' });
    await app.tasks.create(secret.board, { title: 'Aardvark plan' });
    await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Aardvark project', visibility: 'members' });
    expect(await found('q=aardvark')).toEqual(['project:Aardvark project', 'board:Secret aardvark', 'task:Aardvark plan']);
    expect(await found('q=aardvark', acme.member.key)).toEqual([]);
    // The index follows a task to a board the member does not see, and back.
    const moving = await app.tasks.create(app.board, { title: 'Aardvark sighting' });
    expect(await found('q=aardvark', acme.member.key)).toEqual(['task:Aardvark sighting']);
    await call('POST', `/v1/plan/tasks/${moving.key}/move-board/`, acme.adminKey, { board: secret.board.uuid });
    expect(await found('q=aardvark', acme.member.key)).toEqual([]);
    await call('POST', `/v1/plan/tasks/${moving.uuid}/move-board/`, acme.adminKey, { board: app.board.uuid });
    expect(await found('q=aardvark', acme.member.key)).toEqual(['task:Aardvark sighting']);
    const globex = await seedPlanOrg(t, { name: 'Globex' });
    expect(await found('q=aardvark', globex.adminKey)).toEqual([]);
    expect(await found('q=deplo', globex.adminKey)).toEqual([]);
  });

  it('answers the spec codes for the search text and the filters', async () => {
    const tooShort = await search('q=a');
    expect(tooShort.status).toBe(400);
    expect(tooShort.body).toEqual({ code: 'search_query_too_short', detail: 'The search text needs at least 2 characters.', extra: { parameter: 'q' } });
    expect((await search('')).body).toMatchObject({ code: 'search_query_too_short', extra: { parameter: 'q' } });
    expect((await search('q=%20%20x%20')).body.code).toBe('search_query_too_short');
    expect((await search(`q=${'a'.repeat(256)}`)).status).toBe(200);
    const tooLong = await search(`q=${'a'.repeat(257)}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ code: 'search_query_too_long', detail: 'The search text has at most 256 characters.', extra: { parameter: 'q' } });
    expect((await search('q=ok&type=goal')).body).toMatchObject({ code: 'invalid_filter_value', extra: { parameter: 'type' } });
    expect((await search('q=ok&include_archived=maybe')).body).toMatchObject({ code: 'invalid_filter_value', extra: { parameter: 'include_archived' } });
    expect((await search('q=%21%21%21')).body).toMatchObject({ count: 0, results: [] });
    expect((await search('q=ok', app.acme.guest.key)).body.code).toBe('guest_not_allowed');
  });
});
