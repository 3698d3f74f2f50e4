import type { TestApp } from './harness.ts';
import { createBoard, planClient, seedPlanOrg } from './plan-fixtures.ts';
import type { PlanCall } from './plan-fixtures.ts';
import { startTestApp } from './harness.ts';
import type { Config } from '../src/lib/config.ts';

/**
 * Task test fixtures: a Plan organization with one board (PLAT, made by the admin), the minute ceilings out of
 * the way unless a test sets them (tests make many writes within one minute of the manual clock), and a task
 * helper that fails loudly.
 */
export const NO_CEILINGS = { planMinuteLimits: { reads: 1e6, writes: 1e6, bulk: 1e6, delta: 1e6 } };

export async function startTaskApp(overrides: Partial<Config> = {}) {
  const t = await startTestApp({ ...NO_CEILINGS, ...overrides });
  const acme = await seedPlanOrg(t);
  const call = planClient(t);
  const { board, states } = await createBoard(t, acme.adminKey);
  return { t, acme, call, board, states, tasks: taskClient(call, acme.adminKey) };
}

/** Creates tasks on a board (`create`) and reads one (`get`), as `key`; anything but success throws. */
export function taskClient(call: PlanCall, key: string) {
  return {
    async create(board: { uuid: string }, body: Record<string, unknown> = {}, headers?: Record<string, string>) {
      const res = await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, key, { title: 'A task', ...body }, headers);
      if (res.status !== 201) throw new Error(`task not created: ${res.status} ${res.text}`);
      return res.body;
    },
    async get(ref: string, as = key) {
      const res = await call('GET', `/v1/plan/tasks/${ref}/`, as);
      if (res.status !== 200) throw new Error(`task ${ref} not read: ${res.status} ${res.text}`);
      return res.body;
    },
  };
}

export type TaskApp = Awaited<ReturnType<typeof startTaskApp>>;

/** Makes fresh boards of the admin's with keys `${prefix}1`, `${prefix}2`, …: `const newBoard = boardMaker(() => app, 'P')`. */
export function boardMaker(app: () => TaskApp, prefix: string) {
  let n = 0;
  return (body: Record<string, unknown> = {}) => {
    n++;
    return createBoard(app().t, app().acme.adminKey, { name: `Board ${prefix}${n}`, key: `${prefix}${n}`, ...body });
  };
}
export type { TestApp };
