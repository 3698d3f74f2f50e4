import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { startBoardApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
import { runDueNotices } from '../notifications/feature.ts';

describe('Plan task notifications: assignment, state changes, due dates (written with the change)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  let board: { uuid: string };
  let states: Record<string, string>;
  beforeEach(async () => {
    ({ t, acme, call, board, states } = await startBoardApp('states'));
  });
  afterEach(async () => t.close());

  const inbox = async (key: string) =>
    (await call('GET', '/v1/plan/inbox/?page_size=100', key)).body.results.map((n: { kind: string; body: string; agent_name: string | null }) => `${n.kind}: ${n.body}${n.agent_name ? ` (${n.agent_name})` : ''}`);

  it('tells a new owner (not one who assigns themself) and the one before, and the task\'s followers when it changes column', async () => {
    const tasks = `/v1/plan/boards/${board.uuid}/tasks/`;
    const own = await call('POST', tasks, acme.member.key, { title: 'Write the docs', owner: acme.member.user.uuid });
    expect(own.status).toBe(201);
    expect(await inbox(acme.member.key)).toEqual([]);

    const task = (await call('POST', tasks, acme.adminKey, { title: 'Fix the login loop', owner: acme.member.user.uuid }, { 'x-service-agent-name': 'Triage bot' })).body;
    expect(await inbox(acme.member.key)).toEqual([`task.assigned: Ada Admin assigned ${task.key} Fix the login loop to you (Triage bot)`]);

    await call('PATCH', `/v1/plan/tasks/${task.key}/`, acme.adminKey, { owner: acme.other.user.uuid });
    expect(await inbox(acme.other.key)).toEqual([`task.assigned: Ada Admin assigned ${task.key} Fix the login loop to you`]);
    expect((await inbox(acme.member.key))[0]).toBe(`task.unassigned: Ada Admin gave ${task.key} Fix the login loop to someone else`);

    // Followers: the creator (admin), the owner (Otto), a participant (Mia); the one who moves it hears nothing.
    await call('POST', `/v1/plan/tasks/${task.key}/participants/`, acme.adminKey, { user: acme.member.user.uuid });
    await call('POST', `/v1/plan/tasks/${task.key}/move/`, acme.other.key, { state: states['In Progress'] });
    const moved = `task.state_changed: Otto Member moved ${task.key} Fix the login loop to In Progress`;
    expect((await inbox(acme.adminKey))).toEqual([moved]);
    expect((await inbox(acme.member.key))[0]).toBe(moved);
    expect(await inbox(acme.member.key)).toHaveLength(3);
    expect(await inbox(acme.other.key)).toHaveLength(1);
    // Someone who opted out hears nothing; a change that is not a move tells nobody.
    await call('PUT', `/v1/plan/tasks/${task.key}/subscription/`, acme.member.key, { subscribed: false });
    await call('PATCH', `/v1/plan/tasks/${task.key}/`, acme.adminKey, { state: states.Done, title: 'Fixed the login loop' });
    expect(await inbox(acme.member.key)).toHaveLength(3);
    expect(await inbox(acme.other.key)).toEqual([`task.state_changed: Ada Admin moved ${task.key} Fixed the login loop to Done`, expect.stringContaining('task.assigned')]);
    // A write that rolls back (a dry run) notifies nobody.
    await call('POST', `/v1/plan/tasks/${task.key}/archive/?dry_run=true`, acme.adminKey);
    await call('POST', `/v1/plan/tasks/bulk/?dry_run=true`, acme.adminKey, { operation: 'move', items: [{ task: task.key, state: states.Todo }] }, { 'idempotency-key': 'bulk-dry-run-1' });
    expect(await inbox(acme.other.key)).toHaveLength(2);
  });

  it('sends the due-date notice of a task given a due date and an owner through the API', async () => {
    // 2026-03-10T15:00Z: past 08:00 in UTC, the owner's zone.
    const task = (await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.member.key, { title: 'Renew the certificate', owner: acme.member.user.uuid, due_date: '2026-03-10' })).body;
    expect(await runDueNotices(t.deps)).toBe(1);
    expect(await inbox(acme.member.key)).toEqual([`task.due: ${task.key} is due today (2026-03-10).`]);
    expect(await runDueNotices(t.deps)).toBe(0);
  });
});
