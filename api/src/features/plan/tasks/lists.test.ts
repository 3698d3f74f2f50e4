import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoard } from '../../../../test/plan-fixtures.ts';
import { startTaskApp } from '../../../../test/task-fixtures.ts';
import type { TaskApp } from '../../../../test/task-fixtures.ts';

/** Task lists (spec: filters state, label, owner, dates, include tokens, sort, search; every code at its edge). */
describe('Plan task lists', () => {
  let app: TaskApp;
  let board: { uuid: string; key: string };
  let states: Record<string, string>;
  let labels: Record<string, string>;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    app = await startTaskApp();
    const { call, acme, t } = app;
    ({ board, states } = await createBoard(t, acme.adminKey, { name: 'Lists', key: 'LIST' }));
    labels = {};
    for (const name of ['bug', 'ui', 'docs']) labels[name] = (await call('POST', `/v1/plan/boards/${board.uuid}/labels/`, acme.adminKey, { name })).body.uuid;
    const make = async (name: string, body: Record<string, unknown>) => (keys[name] = (await app.tasks.create(board, { title: name, ...body })).key);
    await make('Deploy failed on staging', { labels: [labels.bug], owner: acme.member.user.uuid, priority: 1, due_date: '2026-03-12', description: 'The café rollout broke' });
    t.clock.advance(86_400_000);
    await make('Polish the login form', { labels: [labels.ui], owner: acme.member.user.uuid, priority: 3, due_date: '2026-03-20', state: states['In Progress'] });
    await make('Write the deployment guide', { labels: [labels.docs, labels.bug], priority: 2, participants: [acme.member.user.uuid] });
    t.clock.advance(86_400_000);
    await make('Archived idea', { labels: [labels.ui] });
    await call('POST', `/v1/plan/tasks/${keys['Archived idea']}/archive/`, acme.adminKey, {});
    await make('Ship it', { state: states.Done, owner: acme.admin.uuid, due_date: '2026-04-01' });
    await call('POST', `/v1/plan/tasks/${keys['Ship it']}/children/`, acme.member.key, { title: 'Sub step' });
  });
  afterAll(async () => app.t.close());

  const list = async (query: string, key = app.acme.adminKey, path = `/v1/plan/boards/${board.uuid}/tasks/`) => {
    const res = await app.call('GET', `${path}${query}`, key);
    if (res.status !== 200) return res.body;
    return res.body.results.map((task: { title: string }) => task.title);
  };

  it('filters by state, label, owner, priority, parent and dates, and lists live tasks unless include=archived', async () => {
    expect(await list('')).toEqual(['Deploy failed on staging', 'Write the deployment guide', 'Sub step', 'Polish the login form', 'Ship it']);
    expect(await list(`?state=${states.Todo},${states.Done}&sort=created_at`)).toEqual(['Deploy failed on staging', 'Write the deployment guide', 'Ship it', 'Sub step']);
    expect(await list(`?label=${labels.bug}&sort=key`)).toEqual(['Deploy failed on staging', 'Write the deployment guide']);
    expect(await list(`?label=${labels.ui}&label=${labels.docs}&sort=key`)).toEqual(['Polish the login form', 'Write the deployment guide']);
    expect(await list(`?label=${labels.ui}&include=archived&sort=key`)).toEqual(['Polish the login form', 'Archived idea']);
    expect(await list(`?owner=${app.acme.member.user.uuid}&sort=key`)).toEqual(['Deploy failed on staging', 'Polish the login form']);
    expect(await list('?owner=me', app.acme.member.key)).toEqual(['Deploy failed on staging', 'Polish the login form']);
    expect(await list('?owner=unowned&sort=key')).toEqual(['Write the deployment guide', 'Sub step']);
    expect(await list('?owner=me,unowned&sort=key')).toEqual(['Write the deployment guide', 'Ship it', 'Sub step']);
    expect(await list('?priority=1,2&sort=priority')).toEqual(['Deploy failed on staging', 'Write the deployment guide']);
    expect(await list(`?parent_task=${keys['Ship it']}`)).toEqual(['Sub step']);
    expect(await list('?parent_task=NOPE-1')).toEqual([]);
    expect(await list('?since=2026-03-11&until=2026-03-11&sort=key')).toEqual(['Polish the login form', 'Write the deployment guide']);
    expect(await list('?start_date=2026-03-12&sort=key')).toEqual(['Ship it', 'Sub step']);
    expect(await list('?date=2026-03-10')).toEqual(['Deploy failed on staging']);
    expect(await list('?due_from=2026-03-13&due_to=2026-03-31')).toEqual(['Polish the login form']);
    // Empty values are absent ones.
    expect((await list('?state=&label=&owner=')).length).toBe(5);
  });

  it('sorts by rank (board order), created_at, updated_at, due_date (empty last), priority, key and title, - for descending', async () => {
    expect(await list('?sort=-created_at')).toEqual(['Sub step', 'Ship it', 'Write the deployment guide', 'Polish the login form', 'Deploy failed on staging']);
    expect(await list('?sort=due_date')).toEqual(['Deploy failed on staging', 'Polish the login form', 'Ship it', 'Write the deployment guide', 'Sub step']);
    // Ties go by creation, in the same direction.
    expect(await list('?sort=-due_date')).toEqual(['Ship it', 'Polish the login form', 'Deploy failed on staging', 'Sub step', 'Write the deployment guide']);
    expect(await list('?ordering=title')).toEqual(['Deploy failed on staging', 'Polish the login form', 'Ship it', 'Sub step', 'Write the deployment guide']);
    expect(await list('?sort=-key')).toEqual(['Sub step', 'Ship it', 'Write the deployment guide', 'Polish the login form', 'Deploy failed on staging']);
    expect(await list('?sort=-rank')).toEqual(['Ship it', 'Polish the login form', 'Sub step', 'Write the deployment guide', 'Deploy failed on staging']);
    expect(await list('?sort=password')).toEqual({ detail: 'sort must be one of: rank, created_at, updated_at, due_date, start_date, completed_at, priority, key, title (prefix - for descending).', code: 'invalid_sort', extra: { parameter: 'sort' } });
    expect((await list('?ordering=-')).code).toBe('invalid_sort');
  });

  it('searches the words of titles and descriptions by their start, and a KEY-n (old keys too)', async () => {
    expect(await list('?search=deplo&sort=key')).toEqual(['Deploy failed on staging', 'Write the deployment guide']);
    expect(await list('?search=DEPLOY%20fail')).toEqual(['Deploy failed on staging']);
    expect(await list('?search=caf%C3%A9')).toEqual(['Deploy failed on staging']);
    expect(await list('?search=CAF%C3%89%20roll')).toEqual(['Deploy failed on staging']);
    expect(await list('?search=ploy')).toEqual([]);
    expect(await list('?search=--')).toEqual([]);
    expect(await list(`?search=${keys['Ship it']}`)).toEqual(['Ship it']);
    expect(await list(`?search=${keys['Ship it'].toLowerCase()}&state=${states.Todo}`)).toEqual([]);
    // Renamed, then re-indexed in the same write.
    await app.call('PATCH', `/v1/plan/tasks/${keys['Ship it']}/`, app.acme.adminKey, { title: 'Ship the release' });
    expect(await list('?search=release')).toEqual(['Ship the release']);
    expect(await list('?search=it')).toEqual([]);
    await app.call('PATCH', `/v1/plan/tasks/${keys['Ship it']}/`, app.acme.adminKey, { title: 'Ship it' });
    expect(await list('?search=a')).toEqual({ detail: 'The search text needs at least 2 characters.', code: 'search_query_too_short', extra: { parameter: 'search' } });
    expect(await list(`?search=${'a'.repeat(256)}`)).toEqual([]);
    expect(await list(`?search=${'a'.repeat(257)}`)).toEqual({ detail: 'The search text has at most 256 characters.', code: 'search_query_too_long', extra: { parameter: 'search' } });
  });

  it('answers each bad filter with its code', async () => {
    const uuids = (n: number) => Array.from({ length: n }, (_, i) => `0190c8f4-0000-7000-8000-${String(i).padStart(12, '0')}`).join(',');
    expect(await list(`?label=${uuids(50)}`)).toEqual([]);
    expect(await list(`?label=${uuids(51)}`)).toEqual({ detail: 'label takes at most 50 label uuids.', code: 'invalid_label_filter', extra: { parameter: 'label', limit: 50 } });
    expect(await list('?label=bug')).toEqual({ detail: 'label takes label uuids, separated by commas.', code: 'invalid_label_filter', extra: { parameter: 'label' } });
    expect(await list(`?state=${uuids(50)}`)).toEqual([]);
    expect(await list(`?state=${uuids(51)}`)).toEqual({ detail: 'state takes at most 50 values.', code: 'too_many_filter_values', extra: { parameter: 'state', limit: 50 } });
    expect(await list('?state=todo')).toEqual({ detail: 'state must be uuids, separated by commas.', code: 'invalid_filter_value', extra: { parameter: 'state' } });
    expect(await list('?owner=bob')).toEqual({ detail: 'owner must be "me", "unowned" or user uuids, separated by commas.', code: 'invalid_filter_value', extra: { parameter: 'owner' } });
    expect(await list('?priority=0')).toEqual({ detail: 'priority must be whole numbers from 1 to 5, separated by commas.', code: 'invalid_filter_value', extra: { parameter: 'priority' } });
    expect(await list('?include=archived,everything')).toEqual({ detail: 'include takes archived, participants, relations, children; not everything.', code: 'invalid_filter_value', extra: { parameter: 'include' } });
    expect(await list('?milestone=soon')).toEqual({ detail: 'milestone must be a uuid.', code: 'invalid_filter_value', extra: { parameter: 'milestone' } });
    expect(await list('?since=2026-02-30')).toEqual({ detail: 'since must be a date as YYYY-MM-DD.', code: 'invalid_date_range', extra: { parameter: 'since' } });
    expect(await list('?due_from=2026-04-02&due_to=2026-04-01')).toEqual({ detail: 'due_from is after due_to.', code: 'invalid_date_range', extra: { parameter: 'due_from' } });
    expect(await list('?until=03/10/2026')).toEqual({ detail: 'until must be a date as YYYY-MM-DD.', code: 'invalid_date_range', extra: { parameter: 'until' } });
    // owner=me needs a person.
    expect(await list('?owner=me', app.acme.agentKey)).toEqual({ detail: 'owner=me needs a person; agent and organization keys act for no one.', code: 'actor_required', extra: { parameter: 'owner' } });
    expect(await list('?owner=unowned,me', app.acme.agentKey)).toEqual({ detail: 'owner=me needs a person; agent and organization keys act for no one.', code: 'actor_required', extra: { parameter: 'owner' } });
  });

  it('adds what include asks for, pages with every filter repeated, and lists only what the caller sees', async () => {
    const { call, acme, t } = app;
    const page = await call('GET', `/v1/plan/boards/${board.uuid}/tasks/?label=${labels.bug}&include=participants,relations,children&page_size=1&sort=key`, acme.adminKey);
    expect(page.body.count).toBe(2);
    expect(page.body.results[0]).toMatchObject({ title: 'Deploy failed on staging', participants: [], relations: [], children: [] });
    const next = new URL(page.body.next);
    expect(Object.fromEntries(next.searchParams)).toEqual({ label: labels.bug, include: 'participants,relations,children', page_size: '1', sort: 'key', page: '2' });
    const second = await call('GET', `${next.pathname}${next.search}`, acme.adminKey);
    expect(second.body.results[0]).toMatchObject({ title: 'Write the deployment guide', participants: [acme.member.user.uuid] });

    // Organization-wide: every board the caller sees; a board filter naming one they do not see matches nothing.
    const secret = await createBoard(t, acme.adminKey, { name: 'Secret', key: 'SECRET', visibility: 'members' });
    await app.tasks.create(secret.board, { title: 'Secret plan' });
    const everywhere = '/v1/plan/tasks/';
    expect((await list('?search=secret', acme.adminKey, everywhere))).toEqual(['Secret plan']);
    expect((await list('?search=secret', acme.member.key, everywhere))).toEqual([]);
    expect((await list(`?board=${secret.board.uuid}`, acme.member.key, everywhere))).toEqual([]);
    expect((await call('GET', `/v1/plan/boards/${secret.board.uuid}/tasks/`, acme.member.key)).body).toEqual({ detail: 'Not found.', code: 'not_found' });
    expect((await list(`?board=${board.uuid}&owner=me&sort=key`, acme.member.key, everywhere))).toEqual(['Deploy failed on staging', 'Polish the login form']);
  });

  it('lists the caller\'s own tasks on me/tasks/ (person only): owner, participant, creator or any', async () => {
    const { acme } = app;
    const mine = (query: string, key = acme.member.key) => list(query, key, '/v1/plan/me/tasks/');
    expect(await mine('?sort=key')).toEqual(['Deploy failed on staging', 'Polish the login form']);
    expect(await mine('?role=participant')).toEqual(['Write the deployment guide']);
    expect(await mine('?role=creator')).toEqual(['Sub step']);
    expect(await mine('?role=any&sort=key')).toEqual(['Deploy failed on staging', 'Polish the login form', 'Write the deployment guide', 'Sub step']);
    expect(await mine(`?role=any&label=${labels.ui}`)).toEqual(['Polish the login form']);
    expect(await mine('?role=boss')).toEqual({ detail: 'role must be one of: owner, participant, creator, any.', code: 'invalid_filter_value', extra: { parameter: 'role' } });
    expect(await mine('', acme.agentKey)).toEqual({ detail: 'This endpoint acts for a person; agent and organization keys cannot call it.', code: 'insufficient_scope' });
  });
  it('counts and orders a board search from the search index as its tasks move, archive, restore and change board', async () => {
    const { call, acme, t } = app;
    const here = await createBoard(t, acme.adminKey, { name: 'Searched', key: 'SRCH' });
    const there = await createBoard(t, acme.adminKey, { name: 'Elsewhere', key: 'ELSE' });
    const made: string[] = [];
    for (const [i, title] of ['Zeta one', 'Zeta two', 'Other three', 'Zeta four', 'Zeta five'].entries()) {
      made.push((await app.tasks.create(here.board, { title, state: i % 2 ? here.states['In Progress'] : here.states.Todo })).key);
    }
    const path = `/v1/plan/boards/${here.board.uuid}/tasks/`;
    // What the search must answer: the board's list (same order, same count) keeping the titles with the word.
    const expectSameAsFiltered = async (query: string) => {
      const searched = await call('GET', `${path}?search=zeta&${query}`, acme.adminKey);
      const all = await call('GET', `${path}?page_size=100&${query}`, acme.adminKey);
      const titles = all.body.results.map((task: { title: string }) => task.title).filter((title: string) => title.startsWith('Zeta'));
      expect(searched.body.results.map((task: { title: string }) => task.title)).toEqual(titles);
      expect(searched.body.count).toBe(titles.length);
      const second = await call('GET', `${path}?search=zeta&page_size=1&page=2&${query}`, acme.adminKey);
      expect(second.body.results.map((task: { title: string }) => task.title)).toEqual(titles.slice(1, 2));
    };
    const steps: [string, string, Record<string, unknown>][] = [
      ['move', made[0], { state: here.states.Done }],
      ['move', made[1], { state: here.states.Todo }],
      ['archive', made[3], {}],
      ['move-board', made[4], { board: there.board.uuid, state: there.states.Todo }],
    ];
    await expectSameAsFiltered('');
    for (const [action, key, body] of steps) {
      expect((await call('POST', `/v1/plan/tasks/${key}/${action}/`, acme.adminKey, body)).status).toBe(200);
      for (const query of ['', 'include=archived', 'sort=-rank', 'sort=key']) await expectSameAsFiltered(query);
    }
    expect((await call('POST', `/v1/plan/tasks/${made[3]}/restore/`, acme.adminKey, {})).status).toBe(200);
    await expectSameAsFiltered('');
    expect((await call('GET', `${path}?search=zeta`, acme.adminKey)).body.count).toBe(3);
    expect((await call('GET', `/v1/plan/boards/${there.board.uuid}/tasks/?search=zeta`, acme.adminKey)).body.count).toBe(1);
  });
});
