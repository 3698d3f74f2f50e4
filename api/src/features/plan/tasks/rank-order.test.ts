import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTaskApp } from '../../../../test/task-fixtures.ts';
import type { TaskApp } from '../../../../test/task-fixtures.ts';

type Listed = { uuid: string; key: string; rank: string };

/**
 * Order within a column under concurrent moves (issue 24, item 5), on SQLite and PostgreSQL. A batch of moves runs
 * at once: movers placed after and/or before anchors (tasks of the column no move of the batch touches). Whatever
 * order the server runs them in, afterwards the ranks of the column are unique, the list is in rank order, and
 * every move that was accepted still holds (its task after its `after` and before its `before`; with neither, after
 * every anchor). A pair in the wrong order answers 409 rank_neighbor_missing.
 */
describe('Plan task order under concurrent moves', () => {
  let app: TaskApp;
  let todo: string;
  beforeAll(async () => {
    app = await startTaskApp();
    todo = app.states.Todo;
  });
  afterAll(async () => app.t.close());

  const column = async (): Promise<Listed[]> => {
    const res = await app.call('GET', `/v1/plan/boards/${app.board.uuid}/tasks/?state=${todo}&page_size=100`, app.acme.adminKey);
    expect(res.status).toBe(200);
    return res.body.results;
  };

  it('between two tasks that are no longer adjacent, a move takes the real gap: two moves with the same pair get distinct ranks', async () => {
    const [a, x, y, t] = [await app.tasks.create(app.board, { state: todo }), await app.tasks.create(app.board, { state: app.states.Backlog }), await app.tasks.create(app.board, { state: app.states.Backlog }), await app.tasks.create(app.board, { state: todo })];
    const move = (task: string, body: Record<string, unknown>) => app.call('POST', `/v1/plan/tasks/${task}/move/`, app.acme.adminKey, { state: todo, ...body });
    expect((await move(x.key, { after: a.key, before: t.key })).status).toBe(200);
    expect((await move(y.key, { after: a.key, before: t.key })).status).toBe(200);
    const order = (await column()).map((task) => task.key);
    expect(order.slice(order.indexOf(a.key), order.indexOf(t.key) + 1)).toEqual([a.key, y.key, x.key, t.key]);
    // Between y and x, and right after x: both places exist.
    expect((await move((await app.tasks.create(app.board, { state: todo })).key, { after: y.key, before: x.key })).status).toBe(200);
    const late = await app.tasks.create(app.board, { state: todo });
    expect((await move(late.key, { after: x.key })).status).toBe(200);
    const after = (await column()).map((task) => task.key);
    expect(after.indexOf(late.key)).toBe(after.indexOf(x.key) + 1);
    const ranks = (await column()).map((task) => task.rank);
    expect(new Set(ranks).size).toBe(ranks.length);
  });

  it('keeps ranks unique and every accepted move true, for random batches of concurrent moves', async () => {
    for (let i = 0; i < 6; i++) await app.tasks.create(app.board, { state: todo });
    const placement = fc.record({ after: fc.option(fc.nat(), { nil: undefined }), before: fc.option(fc.nat(), { nil: undefined }) });
    const batch = fc.record({ movers: fc.array(placement, { minLength: 1, maxLength: 5 }), fresh: fc.nat({ max: 2 }) });
    await fc.assert(
      fc.asyncProperty(batch, async ({ movers, fresh }) => {
        for (let i = 0; i < fresh; i++) await app.tasks.create(app.board, { state: todo });
        const now = await column();
        // The last tasks of the column move; the others are the anchors, which stay where they are.
        const moving = now.slice(now.length - movers.length);
        const anchors = now.slice(0, now.length - movers.length);
        const plans = movers.map((m, i) => ({
          task: moving[i],
          after: m.after === undefined ? undefined : anchors[m.after % anchors.length],
          before: m.before === undefined ? undefined : anchors[m.before % anchors.length],
        }));
        const position = (list: Listed[], task: Listed) => list.findIndex((t) => t.uuid === task.uuid);
        const answers = await Promise.all(
          plans.map((p) => app.call('POST', `/v1/plan/tasks/${p.task.key}/move/`, app.acme.adminKey, { state: todo, after: p.after?.key ?? null, before: p.before?.key ?? null })),
        );
        const final = await column();
        const ranks = final.map((t) => t.rank);
        expect(new Set(ranks).size).toBe(ranks.length);
        expect([...ranks].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(ranks);
        for (const [i, p] of plans.entries()) {
          const refused = p.after && p.before && position(now, p.after) >= position(now, p.before);
          if (refused) {
            expect([answers[i].status, answers[i].body.code]).toEqual([409, 'rank_neighbor_missing']);
            continue;
          }
          expect(answers[i].status).toBe(200);
          const at = position(final, p.task);
          if (p.after) expect(at).toBeGreaterThan(position(final, p.after));
          if (p.before) expect(at).toBeLessThan(position(final, p.before));
          if (!p.after && !p.before) for (const anchor of anchors) expect(at).toBeGreaterThan(position(final, anchor));
        }
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  it('migration 0810 gives tasks that shared a rank ranks of their own, in their listed order, then keeps ranks unique', async () => {
    const migration = await import('../../../db/migrations/0810_plan_task_rank_unique.ts');
    await migration.down(app.t.db);
    const column = app.states['In Progress'];
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await app.tasks.create(app.board, { state: column }));
    // Three of them share the second one's rank, as the bug left them.
    const shared = made[1].rank;
    await app.t.db('plan_tasks').whereIn('uuid', [made[2].uuid, made[3].uuid]).update({ rank: shared });
    await migration.up(app.t.db);
    const rows: { uuid: string; rank: string }[] = await app.t.db('plan_tasks').where({ state_uuid: column }).select('uuid', 'rank');
    const byRank = [...rows].sort((a, b) => (a.rank < b.rank ? -1 : 1));
    expect(new Set(rows.map((r) => r.rank)).size).toBe(5);
    const twins = [made[1], made[2], made[3]].map((t) => t.uuid).sort();
    expect(byRank.map((r) => r.uuid)).toEqual([made[0].uuid, ...twins, made[4].uuid]);
    await expect(app.t.db('plan_tasks').where({ uuid: made[4].uuid }).update({ rank: shared })).rejects.toMatchObject({ code: expect.stringMatching(/^(23505|SQLITE_CONSTRAINT_UNIQUE)$/) });
  });
});
