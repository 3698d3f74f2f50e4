import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoard, seedPlanOrg } from '../../../../test/plan-fixtures.ts';
import { startTaskApp } from '../../../../test/task-fixtures.ts';
import type { TaskApp } from '../../../../test/task-fixtures.ts';

/** GET /v1/plan/timeline/: dated tasks as spans of days. */
describe('Plan timeline', () => {
  let app: TaskApp;
  beforeAll(async () => {
    app = await startTaskApp();
  });
  afterAll(async () => app.t.close());

  it('lists live dated tasks whose span overlaps the days, earliest first', async () => {
    const { call, acme, board, t } = app;
    const a = await app.tasks.create(board, { title: 'a', start_date: '2026-04-01', due_date: '2026-04-10' });
    const b = await app.tasks.create(board, { title: 'b', due_date: '2026-03-20' });
    const c = await app.tasks.create(board, { title: 'c', start_date: '2026-04-05', owner: acme.member.user.uuid });
    await app.tasks.create(board, { title: 'undated' });
    const archived = await app.tasks.create(board, { title: 'archived', due_date: '2026-04-02' });
    await call('POST', `/v1/plan/tasks/${archived.key}/archive/`, acme.adminKey);
    const other = await createBoard(t, acme.adminKey, { name: 'Other', key: 'OTH' });
    await app.tasks.create(other.board, { title: 'elsewhere', due_date: '2026-04-03' });
    const titles = async (query: string, key = acme.adminKey) => (await call('GET', `/v1/plan/timeline/${query}`, key)).body.results.map((i: { task: { title: string } }) => i.task.title);
    const all = await call('GET', `/v1/plan/timeline/?board=${board.uuid}`, acme.member.key);
    expect(all.status).toBe(200);
    expect(all.body.results).toEqual([
      { starts_on: '2026-03-20', ends_on: '2026-03-20', task: b },
      { starts_on: '2026-04-01', ends_on: '2026-04-10', task: a },
      { starts_on: '2026-04-05', ends_on: '2026-04-05', task: c },
    ]);
    expect(await titles(`?board=${board.uuid}&start_date=2026-04-06`)).toEqual(['a']);
    expect(await titles(`?board=${board.uuid}&start_date=2026-04-01&end_date=2026-04-04`)).toEqual(['a']);
    expect(await titles('?end_date=2026-03-31')).toEqual(['b']);
    expect(await titles('?start_date=2026-04-02&end_date=2026-04-03')).toEqual(['a', 'elsewhere']);
    expect(await titles('?owner=me', acme.member.key)).toEqual(['c']);
    const globex = await seedPlanOrg(t, { name: 'Globex' });
    expect((await call('GET', `/v1/plan/timeline/?board=${board.uuid}`, globex.adminKey)).body.count).toBe(0);
    expect((await call('GET', '/v1/plan/timeline/?owner=me', acme.agentKey)).body.code).toBe('actor_required');
    expect((await call('GET', '/v1/plan/timeline/?start_date=2026-04-31', acme.adminKey)).body.code).toBe('invalid_date_range');
  });
});
