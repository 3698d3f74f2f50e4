import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTaskApp } from '../../../../test/task-fixtures.ts';
import type { TaskApp } from '../../../../test/task-fixtures.ts';

/** A task's events (the change log as written) and activity (what each change did, by whom, which agent). */
describe('Plan task events and activity', () => {
  let app: TaskApp;
  beforeAll(async () => {
    app = await startTaskApp();
  });
  afterAll(async () => app.t.close());

  it('lists a task\'s changes and those of its links and participants, with the person and the acting agent', async () => {
    const { t, call, acme, board, states } = app;
    const agent = { 'x-service-agent-name': 'Triage%20bot%20(CI)' };
    const task = await app.tasks.create(board, { title: 'Investigate' }, agent);
    const other = await app.tasks.create(board, { title: 'Root cause' });
    t.clock.advance(60_000);
    await call('PATCH', `/v1/plan/tasks/${task.key}/`, acme.member.key, { title: 'Investigate the outage', priority: 2 });
    await call('POST', `/v1/plan/tasks/${task.key}/move/`, acme.adminKey, { state: states.Done }, agent);
    const relation = await call('POST', `/v1/plan/tasks/${other.key}/relations/`, acme.adminKey, { relation_type: 'blocks', target_task: task.key });
    await call('POST', `/v1/plan/tasks/${task.key}/participants/`, acme.adminKey, { user: acme.other.user.uuid });
    await call('DELETE', `/v1/plan/tasks/${task.key}/relations/${relation.body.uuid}/`, acme.adminKey);

    const events = await call('GET', `/v1/plan/tasks/${task.key}/events/`, acme.member.key);
    expect(events.body.count).toBe(6);
    expect(events.body.results.map((e: { object_kind: string; change_kind: string }) => `${e.object_kind} ${e.change_kind}`)).toEqual([
      'task created', 'task updated', 'task moved', 'task_relation created', 'task_participant created', 'task_relation deleted',
    ]);
    const [created, updated] = events.body.results;
    expect(created).toMatchObject({ board: board.uuid, object_uuid: task.uuid, changed_fields: [], actor: { uuid: acme.admin.uuid, full_name: 'Ada Admin' }, agent_name: 'Triage bot (CI)', created_at: '2026-03-10T15:00:00.000Z' });
    expect(created.snapshot).toMatchObject({ key: task.key, title: 'Investigate', version: 1 });
    expect(updated).toMatchObject({ changed_fields: ['title', 'priority'], actor: { full_name: 'Mia Member' }, agent_name: null, snapshot: { title: 'Investigate the outage', version: 2 } });
    expect((await call('GET', `/v1/plan/tasks/${task.key}/events/?ordering=-created_at&page_size=1`, acme.member.key)).body.results[0].change_kind).toBe('deleted');

    const activity = await call('GET', `/v1/plan/tasks/${task.key}/activity/`, acme.member.key);
    expect(activity.body.results.map((a: { action: string }) => a.action)).toEqual([
      'task_relation.deleted', 'task_participant.created', 'task_relation.created', 'task.moved', 'task.updated', 'task.created',
    ]);
    const [unlinked, participant, linked, moved, renamed] = activity.body.results;
    expect(renamed).toMatchObject({
      actor: { full_name: 'Mia Member' }, agent_name: null,
      changes: [{ field: 'title', from: 'Investigate', to: 'Investigate the outage' }, { field: 'priority', from: null, to: 2 }],
      created_at: '2026-03-10T15:01:00.000Z',
    });
    expect(moved).toMatchObject({ agent_name: 'Triage bot (CI)', changes: [{ field: 'state', from: states.Todo, to: states.Done }, { field: 'rank', from: task.rank, to: moved.changes[1].to }, { field: 'completed_at', from: null, to: '2026-03-10T15:01:00.000Z' }] });
    expect(linked).toMatchObject({ object: { kind: 'task_relation', uuid: relation.body.uuid }, snapshot: { relation_type: 'blocks', source_task: other.uuid, target_task: task.uuid } });
    expect(participant.snapshot).toMatchObject({ user: acme.other.user.uuid });
    // A removed link shows what it was.
    expect(unlinked.snapshot).toMatchObject({ relation_type: 'blocks', source_task: other.uuid });
    // Its other side has it too.
    expect((await call('GET', `/v1/plan/tasks/${other.key}/activity/`, acme.adminKey)).body.results.map((a: { action: string }) => a.action)).toEqual(['task_relation.deleted', 'task_relation.created', 'task.created']);
    // Paged activity keeps its diffs: the second page's first entry diffs against the entry before it.
    const page2 = await call('GET', `/v1/plan/tasks/${task.key}/activity/?page=2&page_size=2`, acme.adminKey);
    expect(page2.body.results.map((a: { action: string; changes: unknown[] }) => [a.action, a.changes.length])).toEqual([['task_relation.created', 0], ['task.moved', 3]]);
    expect((await call('GET', `/v1/plan/tasks/NOPE-1/events/`, acme.adminKey)).status).toBe(404);
  });

  it('counts a board move once in the task\'s history', async () => {
    const { call, acme, t } = app;
    const { createBoard } = await import('../../../../test/plan-fixtures.ts');
    const target = await createBoard(t, acme.adminKey, { name: 'Target', key: 'TARGET' });
    const task = await app.tasks.create(app.board);
    await call('POST', `/v1/plan/tasks/${task.key}/move-board/`, acme.adminKey, { board: target.board.uuid });
    const activity = await call('GET', `/v1/plan/tasks/${task.key}/activity/`, acme.adminKey);
    expect(activity.body.results.map((a: { action: string }) => a.action)).toEqual(['task.moved', 'task.created']);
    expect(activity.body.results[0].changes.find((c: { field: string }) => c.field === 'key')).toEqual({ field: 'key', from: task.key, to: 'TARGET-1' });
  });
});
