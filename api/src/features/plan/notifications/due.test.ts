import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { countRows, insertTask, startBoardApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
import { runDueNotices } from './feature.ts';

describe('Plan due-date notices (task.due_soon, task.due, task.overdue: once per task, due date and kind)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  let board: { uuid: string };
  let states: Record<string, string>;
  beforeEach(async () => {
    ({ t, acme, call, board, states } = await startBoardApp('states'));
    await t.db('users').where({ uuid: acme.member.user.uuid }).update({ timezone: 'America/New_York' });
  });
  afterEach(async () => t.close());

  const task = async (due: string | null, options: { state?: string; owner?: string | null; archived?: boolean } = {}) => {
    const uuid = await insertTask(t, board, options.state ?? states.Todo, { archived: options.archived });
    await t.db('plan_tasks').where({ uuid }).update({ due_date: due, owner_uuid: options.owner === undefined ? acme.member.user.uuid : options.owner });
    return uuid;
  };
  const inbox = async () => (await call('GET', '/v1/plan/inbox/?page_size=100', acme.member.key)).body.results.map((n: { kind: string; body: string }) => `${n.kind}: ${n.body}`);

  it('sends each notice from 08:00 in the owner\'s time zone, once, however often the job runs', async () => {
    // 2026-03-10T15:00Z is 11:00 in New York (EDT): the day before the due date.
    await task('2026-03-11');
    expect(await runDueNotices(t.deps)).toBe(1);
    expect(await runDueNotices(t.deps)).toBe(0);
    expect(await inbox()).toEqual(['task.due_soon: PLAT-1 is due tomorrow (2026-03-11).']);

    t.clock.set('2026-03-11T11:59:00Z'); // 07:59 in New York
    expect(await runDueNotices(t.deps)).toBe(0);
    t.clock.set('2026-03-11T12:00:00Z');
    const [a, b] = await Promise.all([runDueNotices(t.deps), runDueNotices(t.deps)]);
    expect(a + b).toBe(1);
    t.clock.set('2026-03-12T13:00:00Z');
    expect(await runDueNotices(t.deps)).toBe(1);
    t.clock.set('2026-03-13T13:00:00Z');
    expect(await runDueNotices(t.deps)).toBe(0);
    expect(await inbox()).toEqual(['task.overdue: PLAT-1 was due on 2026-03-11.', 'task.due: PLAT-1 is due today (2026-03-11).', 'task.due_soon: PLAT-1 is due tomorrow (2026-03-11).']);
    expect(await countRows(t, 'plan_due_notices')).toBe(3);
  });

  it('skips tasks done, canceled, archived or without owner; a new due date gets its own notices', async () => {
    await task('2026-03-10', { state: states.Done });
    await task('2026-03-10', { state: states.Canceled });
    await task('2026-03-10', { archived: true });
    await task('2026-03-10', { owner: null });
    const moved = await task('2026-03-10');
    expect(await runDueNotices(t.deps)).toBe(1);
    await t.db('plan_tasks').where({ uuid: moved }).update({ due_date: '2026-03-11' });
    expect(await runDueNotices(t.deps)).toBe(1);
    expect((await inbox())[0]).toBe('task.due_soon: PLAT-5 is due tomorrow (2026-03-11).');
  });

  it('uses the organization\'s time zone for an owner without one, and sends nothing for due dates far in the past', async () => {
    await t.db('users').where({ uuid: acme.member.user.uuid }).update({ timezone: null });
    await t.db('organizations').where({ uuid: acme.org.uuid }).update({ timezone: 'Asia/Tokyo' });
    await task('2026-02-01');
    // 15:00Z is midnight in Tokyo on 2026-03-11: before 08:00 there.
    await task('2026-03-11');
    expect(await runDueNotices(t.deps)).toBe(0);
    t.clock.set('2026-03-10T23:00:00Z'); // 08:00 on the 11th in Tokyo
    expect(await runDueNotices(t.deps)).toBe(1);
    expect(await inbox()).toEqual(['task.due: PLAT-2 is due today (2026-03-11).']);
  });
});
