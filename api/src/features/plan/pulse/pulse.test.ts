import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoard, seedPlanOrg } from '../../../../test/plan-fixtures.ts';
import { startTaskApp } from '../../../../test/task-fixtures.ts';
import type { TaskApp } from '../../../../test/task-fixtures.ts';

const DAY = 24 * 60 * 60 * 1000;

/** GET /v1/plan/pulse/: counts per state and owner over a period. */
describe('Plan pulse', () => {
  let app: TaskApp;
  beforeAll(async () => {
    app = await startTaskApp();
  });
  afterAll(async () => app.t.close());

  it('counts tasks per state and per owner: now, open, and created, completed, changed, archived within the period', async () => {
    const { call, acme, board, states, t } = app;
    const mine = { owner: acme.admin.uuid };
    const old = await app.tasks.create(board, { title: 'old', ...mine });
    t.clock.advance(10 * DAY); // 2026-03-20
    await app.tasks.create(board, { title: 'new', ...mine });
    await app.tasks.create(board, { title: 'hers', owner: acme.member.user.uuid, state: states['In Progress'] });
    const done = await app.tasks.create(board, { title: 'shipped', ...mine });
    await call('POST', `/v1/plan/tasks/${done.key}/move/`, acme.adminKey, { state: states.Done });
    const gone = await app.tasks.create(board, { title: 'dropped' });
    await call('POST', `/v1/plan/tasks/${gone.key}/archive/`, acme.adminKey);
    const res = await call('GET', `/v1/plan/pulse/?board=${board.uuid}`, acme.member.key);
    expect(res.status).toBe(200);
    expect(res.body.start_date).toBe('2026-03-14');
    expect(res.body.end_date).toBe('2026-03-20');
    expect(res.body.totals).toEqual({ tasks: 4, open: 3, created: 4, completed: 1, changed: 3, archived: 1 });
    const byName = Object.fromEntries(res.body.states.map((s: { name: string }) => [s.name, s]));
    expect(res.body.states.map((s: { name: string }) => s.name)).toEqual(['Backlog', 'Todo', 'In Progress', 'Done', 'Canceled']);
    expect(byName.Todo).toEqual({ state: states.Todo, board: board.uuid, name: 'Todo', category: 'todo', tasks: 2, open: 2, created: 2, completed: 0, changed: 1, archived: 1 });
    expect(byName.Done).toMatchObject({ tasks: 1, open: 0, completed: 1 });
    expect(byName.Backlog).toMatchObject({ tasks: 0, open: 0, created: 0 });
    expect(res.body.owners).toEqual([
      { owner: { uuid: acme.admin.uuid, id: acme.admin.uuid, full_name: 'Ada Admin', name: 'Ada Admin' }, tasks: 3, open: 2, created: 2, completed: 1, changed: 2, archived: 0 },
      { owner: expect.objectContaining({ uuid: acme.member.user.uuid }), tasks: 1, open: 1, created: 1, completed: 0, changed: 1, archived: 0 },
      { owner: null, tasks: 0, open: 0, created: 1, completed: 0, changed: 0, archived: 1 },
    ]);
    // An earlier period: only the old task was created then.
    const before = await call('GET', `/v1/plan/pulse/?board=${board.uuid}&start_date=2026-03-01&end_date=2026-03-12`, acme.adminKey);
    expect(before.body.totals).toEqual({ tasks: 4, open: 3, created: 1, completed: 0, changed: 1, archived: 0 });
    expect(old.title).toBe('old');
  });

  it('covers only boards the caller sees; a board or project filter naming another organization\'s counts nothing', async () => {
    const { call, acme, board, t } = app;
    const secret = await createBoard(t, acme.adminKey, { name: 'Secret', key: 'SEC', visibility: 'members' });
    await app.tasks.create(secret.board, { title: 'hidden' });
    const all = (await call('GET', '/v1/plan/pulse/', acme.adminKey)).body.totals.tasks;
    expect((await call('GET', '/v1/plan/pulse/', acme.member.key)).body.totals.tasks).toBe(all - 1);
    const globex = await seedPlanOrg(t, { name: 'Globex' });
    const foreign = await call('GET', `/v1/plan/pulse/?board=${board.uuid}`, globex.adminKey);
    expect(foreign.status).toBe(200);
    expect(foreign.body).toMatchObject({ totals: { tasks: 0, created: 0 }, states: [], owners: [] });
  });

  it('answers invalid_date_range for malformed or reversed days', async () => {
    const { call, acme } = app;
    expect((await call('GET', '/v1/plan/pulse/?start_date=2026-3-1', acme.adminKey)).body).toMatchObject({ code: 'invalid_date_range' });
    const reversed = await call('GET', '/v1/plan/pulse/?start_date=2026-03-10&end_date=2026-03-01', acme.adminKey);
    expect(reversed.status).toBe(400);
    expect(reversed.body.code).toBe('invalid_date_range');
    expect((await call('GET', '/v1/plan/pulse/?project=x', acme.adminKey)).body).toMatchObject({ code: 'invalid_filter_value', extra: { parameter: 'project' } });
  });
});
