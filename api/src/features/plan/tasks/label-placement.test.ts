import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoard } from '../../../../test/plan-fixtures.ts';
import { startTaskApp } from '../../../../test/task-fixtures.ts';
import type { TaskApp } from '../../../../test/task-fixtures.ts';

/**
 * Label filters read the label rows at the place listed (migration 0900: each label row keeps its task's column and
 * liveness, written by triggers). Whatever tasks go through (moves, archives, restores, new labels), a list
 * filtered by label, by label and column, or by label and owner names the same tasks and counts as the board's
 * tasks say.
 */
describe('Plan task lists by label, as tasks move', () => {
  let app: TaskApp;
  let board: { uuid: string };
  let states: string[];
  let labels: string[];
  let tasks: string[];
  beforeAll(async () => {
    app = await startTaskApp();
    const made = await createBoard(app.t, app.acme.adminKey, { name: 'Placed', key: 'PLACE' });
    board = made.board;
    states = Object.values(made.states);
    labels = [];
    for (const name of ['red', 'green', 'blue']) labels.push((await app.call('POST', `/v1/plan/boards/${board.uuid}/labels/`, app.acme.adminKey, { name })).body.uuid);
    tasks = [];
    for (let i = 0; i < 6; i++) {
      const owner = i % 2 === 0 ? { owner: app.acme.admin.uuid } : {};
      tasks.push((await app.tasks.create(board, { title: `Task ${i}`, labels: [labels[i % 3]], state: states[i % states.length], ...owner })).key);
    }
  });
  afterAll(async () => app.t.close());

  type Task = { key: string; state: string; labels: string[]; archived_at: string | null; owner: string | null };
  const everything = async (): Promise<Task[]> => (await app.call('GET', `/v1/plan/boards/${board.uuid}/tasks/?include=archived&page_size=100`, app.acme.adminKey)).body.results;
  const listed = async (query: string) => {
    const res = await app.call('GET', `/v1/plan/boards/${board.uuid}/tasks/?${query}&page_size=100`, app.acme.adminKey);
    expect(res.status).toBe(200);
    return { count: res.body.count, keys: res.body.results.map((t: Task) => t.key).sort() };
  };

  const operation = fc.oneof(
    fc.record({ op: fc.constant('move' as const), task: fc.nat(5), state: fc.nat(10) }),
    fc.record({ op: fc.constant('archive' as const), task: fc.nat(5) }),
    fc.record({ op: fc.constant('restore' as const), task: fc.nat(5) }),
    fc.record({ op: fc.constant('labels' as const), task: fc.nat(5), labels: fc.subarray([0, 1, 2]) }),
  );

  it('names and counts the same tasks as the board does, for every label and column', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 6 }), async (operations) => {
        for (const o of operations) {
          const key = tasks[o.task];
          const path = `/v1/plan/tasks/${key}/`;
          const admin = app.acme.adminKey;
          // Refusals (restoring a live task, archiving an archived one) leave the task as it was: fine here.
          if (o.op === 'move') await app.call('POST', `${path}move/`, admin, { state: states[o.state % states.length] });
          else if (o.op === 'archive') await app.call('POST', `${path}archive/`, admin, {});
          else if (o.op === 'restore') await app.call('POST', `${path}restore/`, admin, {});
          else await app.call('PATCH', path, admin, { labels: o.labels.map((i) => labels[i]) });
        }
        const all = await everything();
        for (const [i, label] of labels.entries()) {
          const carrying = all.filter((t) => t.labels.includes(label));
          const live = carrying.filter((t) => t.archived_at === null).map((t) => t.key).sort();
          expect(await listed(`label=${label}`)).toEqual({ count: live.length, keys: live });
          expect(await listed(`label=${label}&include=archived&sort=key`)).toEqual({ count: carrying.length, keys: carrying.map((t) => t.key).sort() });
          const two = [label, labels[(i + 1) % 3]];
          const either = all.filter((t) => t.archived_at === null && t.labels.some((l) => two.includes(l))).map((t) => t.key).sort();
          expect(await listed(`label=${two.join(',')}`)).toEqual({ count: either.length, keys: either });
          // One person's tasks check each task's labels instead of reading the label's rows.
          const owned = carrying.filter((t) => t.archived_at === null && t.owner === app.acme.admin.uuid).map((t) => t.key).sort();
          expect(await listed(`label=${label}&owner=${app.acme.admin.uuid}`)).toEqual({ count: owned.length, keys: owned });
          for (const state of states) {
            const here = carrying.filter((t) => t.archived_at === null && t.state === state).map((t) => t.key).sort();
            expect(await listed(`label=${label}&state=${state}`)).toEqual({ count: here.length, keys: here });
          }
        }
      }),
      { numRuns: 8 },
    );
  });
});
