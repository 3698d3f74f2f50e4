import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoard, seedPlanOrg } from '../../../../test/plan-fixtures.ts';
import { startTaskApp } from '../../../../test/task-fixtures.ts';
import type { TaskApp } from '../../../../test/task-fixtures.ts';
import { planDelta } from './feature.ts';

const DAY = 24 * 60 * 60 * 1000;
const NOT_FOUND = { detail: 'Not found.', code: 'not_found' };

/** The board snapshot, the delta feed after its cursor (order, paging, tombstones), the 7-day window and pruning. */
describe('Plan board snapshot and delta feed', () => {
  let app: TaskApp;
  beforeAll(async () => {
    app = await startTaskApp();
  });
  afterAll(async () => app.t.close());

  const snapshot = async (board: string, key = app.acme.adminKey) => {
    const res = await app.call('GET', `/v1/plan/boards/${board}/board/`, key);
    expect(res.status).toBe(200);
    return res.body;
  };
  const delta = (board: string, cursor: string, query = '', key = app.acme.adminKey) =>
    app.call('GET', `/v1/plan/boards/${board}/delta/?cursor=${encodeURIComponent(cursor)}${query}`, key);

  it('answers the board, its states, labels, members and live tasks in board order, with a delta_cursor', async () => {
    const { call, acme, board, states } = app;
    const label = (await call('POST', `/v1/plan/boards/${board.uuid}/labels/`, acme.adminKey, { name: 'bug' })).body;
    const first = await app.tasks.create(board, { title: 'First', labels: [label.uuid] });
    const done = await app.tasks.create(board, { title: 'Shipped', state: states.Done });
    const second = await app.tasks.create(board, { title: 'Second' });
    const archived = await app.tasks.create(board, { title: 'Old' });
    await call('POST', `/v1/plan/tasks/${archived.key}/archive/`, acme.adminKey);
    const body = await snapshot(board.uuid, acme.member.key);
    expect(Object.keys(body)).toEqual(['board', 'states', 'labels', 'members', 'tasks', 'comment_counts', 'delta_cursor', 'generated_at']);
    expect(body.board).toMatchObject({ uuid: board.uuid, key: 'PLAT', name: 'Platform' });
    expect(body.states.map((s: { name: string }) => s.name)).toEqual(['Backlog', 'Todo', 'In Progress', 'Done', 'Canceled']);
    expect(body.labels).toEqual([expect.objectContaining({ uuid: label.uuid, name: 'bug', is_archived: false })]);
    expect(body.members).toEqual([expect.objectContaining({ role: 'manager', user: expect.objectContaining({ uuid: acme.admin.uuid }) })]);
    // Todo (First, Second in rank order) before Done; archived tasks are not on the board.
    expect(body.tasks.map((t: { key: string }) => t.key)).toEqual([first.key, second.key, done.key]);
    expect(body.tasks[0]).toEqual(await app.tasks.get(first.key));
    expect(body.delta_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(body.generated_at).toBe('2026-03-10T15:00:00.000Z');
    // Nothing happened since: an empty page, and a cursor to continue from.
    const quiet = await delta(board.uuid, body.delta_cursor, '', acme.member.key);
    expect(quiet.status).toBe(200);
    expect(quiet.body).toEqual({ board: board.uuid, results: [], cursor: expect.any(String), has_more: false });
  });

  it('answers the changes after the cursor in order, paged, with deleted objects as tombstones', async () => {
    const { call, acme, board, states } = app;
    const { delta_cursor: cursor } = await snapshot(board.uuid);
    const task = await app.tasks.create(board, { title: 'Fresh' });
    await call('PATCH', `/v1/plan/tasks/${task.key}/`, acme.adminKey, { title: 'Fresh, renamed' }, { 'x-service-agent-name': 'Sync%20bot' });
    await call('POST', `/v1/plan/tasks/${task.key}/move/`, acme.adminKey, { state: states['In Progress'] });
    await call('POST', `/v1/plan/tasks/${task.key}/archive/`, acme.adminKey);
    await call('DELETE', `/v1/plan/tasks/${task.key}/`, acme.adminKey);
    const all = await delta(board.uuid, cursor);
    expect(all.status).toBe(200);
    expect(all.body.results.map((c: { change_kind: string }) => c.change_kind)).toEqual(['created', 'updated', 'moved', 'archived', 'deleted']);
    const seqs = all.body.results.map((c: { seq: number }) => c.seq);
    expect(seqs).toEqual(seqs.map((_: number, i: number) => seqs[0] + i));
    const [created, updated, moved, archived, deleted] = all.body.results;
    expect(created).toMatchObject({ object_kind: 'task', object_uuid: task.uuid, changed_fields: [], snapshot: { title: 'Fresh', version: 1 }, actor: { uuid: acme.admin.uuid }, agent_name: null });
    expect(updated).toMatchObject({ changed_fields: ['title'], snapshot: { title: 'Fresh, renamed', version: 2 }, agent_name: 'Sync bot' });
    expect(moved.snapshot.state).toBe(states['In Progress']);
    expect(archived.snapshot.archived_at).toBe('2026-03-10T15:00:00.000Z');
    expect(deleted).toEqual({ seq: seqs[4], object_kind: 'task', object_uuid: task.uuid, task: task.uuid, change_kind: 'deleted', changed_fields: [], snapshot: null, actor: { uuid: acme.admin.uuid }, agent_name: null, created_at: '2026-03-10T15:00:00.000Z' });
    expect(all.body.has_more).toBe(false);

    // Two at a time: the same changes, then an empty page.
    const pages: unknown[] = [];
    let next = cursor;
    for (let more = true; more; ) {
      const page = await delta(board.uuid, next, '&page_size=2');
      expect(page.body.results.length).toBeLessThanOrEqual(2);
      pages.push(...page.body.results);
      ({ cursor: next, has_more: more } = page.body);
    }
    expect(pages).toEqual(all.body.results);
    expect((await delta(board.uuid, next)).body.results).toEqual([]);
    expect((await delta(board.uuid, next, '&page_size=101')).body).toMatchObject({ code: 'invalid_filter_value', extra: { parameter: 'page_size' } });
  });

  it('counts each live task\'s comments, and names the task of a comment\'s change so a client keeps the count', async () => {
    const { call, acme, board } = app;
    const talked = await app.tasks.create(board, { title: 'Talked about' });
    const quiet = await app.tasks.create(board, { title: 'Nobody said anything' });
    const first = (await call('POST', `/v1/plan/tasks/${talked.key}/comments/`, acme.adminKey, { body: 'One' })).body;
    await call('POST', `/v1/plan/tasks/${talked.key}/comments/`, acme.adminKey, { body: 'A reply', parent: first.uuid });
    await call('POST', `/v1/plan/tasks/${talked.key}/comments/`, acme.adminKey, { body: 'Two' });
    const before = await snapshot(board.uuid, acme.member.key);
    expect(before.comment_counts[talked.uuid]).toBe(3);
    expect(Object.hasOwn(before.comment_counts, quiet.uuid)).toBe(false);

    // A comment on the quiet task, then the first one deleted with its reply: each change names its task.
    const said = (await call('POST', `/v1/plan/tasks/${quiet.key}/comments/`, acme.adminKey, { body: 'Finally' })).body;
    expect((await call('DELETE', `/v1/plan/tasks/${talked.key}/comments/${first.uuid}/`, acme.adminKey)).status).toBe(204);
    const feed = (await delta(board.uuid, before.delta_cursor, '', acme.member.key)).body.results;
    expect(feed.map((c: { object_kind: string; change_kind: string; task: string }) => [c.object_kind, c.change_kind, c.task])).toEqual([
      ['comment', 'created', quiet.uuid],
      ['comment', 'deleted', talked.uuid],
      ['comment', 'deleted', talked.uuid],
    ]);
    expect(feed[0].object_uuid).toBe(said.uuid);
    // What the feed says, applied, is what a fresh snapshot counts.
    const after = await snapshot(board.uuid, acme.member.key);
    expect(after.comment_counts[talked.uuid]).toBe(1);
    expect(after.comment_counts[quiet.uuid]).toBe(1);
  });

  it('shows a task that moved to another board as a move there, and renames tasks with their board', async () => {
    const { call, acme, board, t } = app;
    const other = await createBoard(t, acme.adminKey, { name: 'Other', key: 'OTHER' });
    const { delta_cursor: cursor } = await snapshot(board.uuid);
    const task = await app.tasks.create(board, { title: 'Leaving' });
    await call('POST', `/v1/plan/tasks/${task.key}/move-board/`, acme.adminKey, { board: other.board.uuid });
    await call('PATCH', `/v1/plan/boards/${board.uuid}/`, acme.adminKey, { key: 'PLATX' });
    const stay = await app.tasks.create(board, { title: 'Staying' });
    const feed = (await delta(board.uuid, cursor)).body.results;
    expect(feed.map((c: { object_kind: string; change_kind: string }) => `${c.object_kind} ${c.change_kind}`)).toEqual(['task created', 'task moved', 'board updated', 'task created']);
    expect(feed[1].snapshot).toMatchObject({ uuid: task.uuid, board: other.board.uuid, key: 'OTHER-1' });
    // The created task's snapshot is shown under the board's key of now.
    expect(feed[0].snapshot.key).toBe(task.key.replace('PLAT-', 'PLATX-'));
    expect(feed[3].snapshot.key).toBe(stay.key);
    await call('PATCH', `/v1/plan/boards/${board.uuid}/`, acme.adminKey, { key: 'PLAT' });
  });

  it('refuses missing, malformed, foreign and future cursors with invalid_filter_value', async () => {
    const { t, acme, board } = app;
    const other = await createBoard(t, acme.adminKey, { name: 'Cursor test', key: 'CURS' });
    const otherCursor = (await snapshot(other.board.uuid)).delta_cursor;
    const refusal = (detail: RegExp) => ({ code: 'invalid_filter_value', detail: expect.stringMatching(detail), extra: { parameter: 'cursor' } });
    expect((await app.call('GET', `/v1/plan/boards/${board.uuid}/delta/`, acme.adminKey)).body).toEqual(refusal(/cursor is required/));
    for (const bad of ['not a cursor!', 'e30', Buffer.from('{"b":"x","s":1,"t":1}').toString('base64url'), 'x'.repeat(600)]) {
      const res = await delta(board.uuid, bad);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(refusal(/not one this API gave out/));
    }
    expect((await delta(board.uuid, otherCursor)).body).toEqual(refusal(/another board/));
    const ahead = Buffer.from(JSON.stringify({ b: board.uuid, s: 1e9, t: t.clock.now().getTime() })).toString('base64url');
    expect((await delta(board.uuid, ahead)).body).toEqual(refusal(/ahead of the board/));
  });

  it('answers 400 delta_window_expired for a cursor issued more than 7 days ago (the injected clock)', async () => {
    const { t, board } = app;
    const { delta_cursor: cursor } = await snapshot(board.uuid);
    t.clock.advance(7 * DAY);
    expect((await delta(board.uuid, cursor)).status).toBe(200);
    t.clock.advance(1);
    const expired = await delta(board.uuid, cursor);
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({ code: 'delta_window_expired', detail: expect.stringContaining('older than 7 days'), extra: { full_resync_required: true } });
  });

  it('prunes changes older than 7 days hourly, and a cursor whose next changes were pruned has expired', async () => {
    const { t, call, acme, board } = app;
    const { delta_cursor: cursor } = await snapshot(board.uuid);
    const a = await app.tasks.create(board, { title: 'a' });
    await call('PATCH', `/v1/plan/tasks/${a.key}/`, acme.adminKey, { title: 'a2' });
    await call('PATCH', `/v1/plan/tasks/${a.key}/`, acme.adminKey, { title: 'a3' });
    // Read one change a little under 7 days later, then the job prunes what is now older than 7 days.
    t.clock.advance(7 * DAY - 60_000);
    const first = await delta(board.uuid, cursor, '&page_size=1');
    expect(first.body.results).toHaveLength(1);
    t.clock.advance(120_000);
    const job = planDelta.jobs!.find((j) => j.name === 'prune-plan-changes')!;
    expect(job.schedule).toBe('43 * * * *');
    const before = Number((await t.db('plan_changes').count({ n: '*' }))[0].n);
    const pruned = await job.run(t.deps);
    expect(pruned).toBeGreaterThan(0);
    expect(Number((await t.db('plan_changes').count({ n: '*' }))[0].n)).toBe(before - (pruned as number));
    const [{ n: old }] = await t.db('plan_changes').where('created_at', '<', new Date(t.clock.now().getTime() - 7 * DAY).toISOString()).count({ n: '*' });
    expect(Number(old)).toBe(0);
    // The cursor is fresh, the changes after it are gone: the client must read the snapshot again.
    const gone = await delta(board.uuid, first.body.cursor);
    expect(gone.status).toBe(400);
    expect([gone.body.code, gone.body.extra]).toEqual(['delta_window_expired', { full_resync_required: true }]);
    // A fresh snapshot continues.
    const fresh = await snapshot(board.uuid);
    await app.tasks.create(board, { title: 'after' });
    expect((await delta(board.uuid, fresh.delta_cursor)).body.results).toHaveLength(1);
  });

  it('is a 404 with the body of an absent board for another organization and for a members-only board you are not on', async () => {
    const { t, call, acme, board } = app;
    const globex = await seedPlanOrg(t, { name: 'Globex' });
    const cursor = (await snapshot(board.uuid)).delta_cursor;
    for (const path of [`/v1/plan/boards/${board.uuid}/board/`, `/v1/plan/boards/${board.uuid}/delta/?cursor=${cursor}`]) {
      const foreign = await call('GET', path, globex.adminKey);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(NOT_FOUND);
      const absent = await call('GET', path.replace(board.uuid, '0190b5a2-0000-7000-8000-000000000000'), globex.adminKey);
      expect(absent.body).toEqual(foreign.body);
    }
    const secret = await createBoard(t, acme.adminKey, { name: 'Secret', key: 'SECRET', visibility: 'members' });
    expect((await call('GET', `/v1/plan/boards/${secret.board.uuid}/board/`, acme.member.key)).status).toBe(404);
    expect((await call('GET', `/v1/plan/boards/${secret.board.uuid}/board/`, acme.agentKey)).status).toBe(200);
  });
});

describe('Plan delta feed minute ceiling', () => {
  it('counts delta requests against the delta ceiling (240 by default), apart from reads', async () => {
    const app = await startTaskApp({ planMinuteLimits: { reads: 1e6, writes: 1e6, bulk: 1e6, delta: 2 } });
    try {
      const { call, acme, board } = app;
      const { delta_cursor: cursor } = (await call('GET', `/v1/plan/boards/${board.uuid}/board/`, acme.adminKey)).body;
      const path = `/v1/plan/boards/${board.uuid}/delta/?cursor=${cursor}`;
      expect((await call('GET', path, acme.adminKey)).headers.get('ratelimit-policy')).toBe('"plan-delta";q=2;w=60');
      expect((await call('GET', path, acme.adminKey)).status).toBe(200);
      const refused = await call('GET', path, acme.adminKey);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'throttled', extra: { retry_after: 60 } });
      expect((await call('GET', `/v1/plan/boards/${board.uuid}/board/`, acme.adminKey)).status).toBe(200);
      expect((await call('GET', path, acme.member.key)).status).toBe(200);
    } finally {
      await app.t.close();
    }
  });
});
