import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { createBoard, insertTask, startBoardApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';

describe('Plan labels (CONTRACT §9; spec label_in_use, is_archived)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  let board: { uuid: string };
  let states: Record<string, string>;
  let base: string;
  beforeEach(async () => ({ t, acme, call, board, states, base } = await startBoardApp('labels')));
  afterEach(async () => t.close());

  it('creates, renames and recolours labels; names are unique among live labels', async () => {
    const bug = await call('POST', base, acme.adminKey, { name: 'bug', color: '#FF0000' });
    expect(bug.status).toBe(201);
    expect(bug.body).toEqual({
      uuid: bug.body.uuid, id: bug.body.uuid, board: board.uuid, name: 'bug', color: '#FF0000', description: '', archived_at: null, is_archived: false,
      created_at: '2026-03-10T15:00:00.000Z', updated_at: '2026-03-10T15:00:00.000Z',
    });
    expect((await call('POST', base, acme.adminKey, { name: 'feature' })).body.color).toBe('#BEC2C8');
    expect((await call('POST', base, acme.adminKey, { name: 'BUG' })).body).toEqual({ name: ['A live label of this board already has this name.'] });
    expect((await call('PATCH', `${base}${bug.body.uuid}/`, acme.adminKey, { name: 'Feature' })).body).toEqual({ name: ['A live label of this board already has this name.'] });
    t.clock.advance(1000);
    expect((await call('PATCH', `${base}${bug.body.uuid}/`, acme.adminKey, { name: 'defect', color: '#AA0000' })).body).toMatchObject({ name: 'defect', color: '#AA0000', updated_at: '2026-03-10T15:00:01.000Z' });
    const one = await t.request('GET', `${base}${bug.body.uuid}/`, { key: acme.member.key, example: true });
    expect([one.status, one.body]).toEqual([200, expect.objectContaining({ uuid: bug.body.uuid, name: 'defect', color: '#AA0000' })]);
    // Another board's label is not on this board.
    const other = await createBoard(t, acme.adminKey, { key: 'OTHER' });
    expect((await call('GET', `/v1/plan/boards/${other.board.uuid}/labels/${bug.body.uuid}/`, acme.adminKey)).status).toBe(404);
    expect((await call('GET', `${base}?search=def`, acme.adminKey)).body.results.map((l: { name: string }) => l.name)).toEqual(['defect']);
  });

  it('archives (is_archived true) and restores; a restored label needs its name free', async () => {
    const bug = await call('POST', base, acme.adminKey, { name: 'bug' });
    const archived = await call('POST', `${base}${bug.body.uuid}/archive/`, acme.adminKey, {});
    expect(archived.body).toMatchObject({ is_archived: true, archived_at: '2026-03-10T15:00:00.000Z' });
    expect((await call('GET', base, acme.adminKey)).body.count).toBe(0);
    expect((await call('GET', `${base}?include_archived=true`, acme.adminKey)).body.count).toBe(1);
    const again = await call('POST', base, acme.adminKey, { name: 'bug' });
    expect(again.status).toBe(201);
    expect((await call('POST', `${base}${bug.body.uuid}/restore/`, acme.adminKey, {})).body).toEqual({ name: ['A live label of this board already has this name.'] });
    await call('DELETE', `${base}${again.body.uuid}/`, acme.adminKey);
    expect((await call('POST', `${base}${bug.body.uuid}/restore/`, acme.adminKey, {})).body).toMatchObject({ is_archived: false });
  });

  it('takes the DailyBot client\'s description and is_archived on POST and PATCH (by the label\'s uuid alone too)', async () => {
    const ops = await call('POST', base, acme.adminKey, { name: 'ops', color: '#CC3300', description: 'Operations work' });
    expect(ops.status).toBe(201);
    expect(ops.body).toMatchObject({ name: 'ops', description: 'Operations work', is_archived: false });
    t.clock.advance(1000);
    const one = `/v1/plan/labels/${ops.body.uuid}/`;
    expect((await call('PATCH', one, acme.adminKey, { description: 'Ops, on call', is_archived: true })).body).toMatchObject({
      description: 'Ops, on call', is_archived: true, archived_at: '2026-03-10T15:00:01.000Z', updated_at: '2026-03-10T15:00:01.000Z',
    });
    expect((await call('GET', base, acme.adminKey)).body.count).toBe(0);
    // Archiving what is archived changes nothing; restoring needs the name free, as …/restore/ does.
    expect((await call('PATCH', one, acme.adminKey, { is_archived: true })).body.archived_at).toBe('2026-03-10T15:00:01.000Z');
    const taken = await call('POST', base, acme.adminKey, { name: 'ops' });
    expect((await call('PATCH', one, acme.adminKey, { is_archived: false })).body).toEqual({ name: ['A live label of this board already has this name.'] });
    expect((await call('PATCH', one, acme.adminKey, { name: 'ops-old', is_archived: false })).body).toMatchObject({ name: 'ops-old', is_archived: false, archived_at: null });
    expect((await call('GET', `${base}${taken.body.uuid}/`, acme.adminKey)).body.description).toBe('');
    // Created archived: its name does not block a live one.
    const old = await call('POST', base, acme.adminKey, { name: 'ops', description: 'Kept for history', is_archived: true });
    expect([old.status, old.body.is_archived, old.body.description]).toEqual([201, true, 'Kept for history']);
    expect((await call('PATCH', one, acme.adminKey, { is_archived: 'maybe' })).status).toBe(400);
    expect((await call('PATCH', one, acme.adminKey, { description: 'x'.repeat(1001) })).status).toBe(400);
  });

  it('deletes a label on no task; 409 label_in_use while any task (archived ones too) carries it', async () => {
    const bug = await call('POST', base, acme.adminKey, { name: 'bug' });
    const task = await insertTask(t, board, states.Todo, { labels: [bug.body.uuid], archived: true });
    const refused = await call('DELETE', `${base}${bug.body.uuid}/`, acme.adminKey);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: 'This label is on 1 task(s); archive it instead.', code: 'label_in_use', extra: { tasks: 1 } });
    await t.db('plan_task_labels').where({ task_uuid: task }).delete();
    const dry = await t.request('DELETE', `${base}${bug.body.uuid}/?dry_run=true`, { key: acme.adminKey, example: true });
    expect(dry.body).toEqual({
      dry_run: true, status: 204, result: { deleted: { object_kind: 'label', uuid: bug.body.uuid, name: 'bug' } },
      changes: [{ object_kind: 'label', object_uuid: bug.body.uuid, change_kind: 'deleted', changed_fields: [] }],
    });
    expect((await call('DELETE', `${base}${bug.body.uuid}/`, acme.adminKey)).status).toBe(204);
    expect((await call('GET', `${base}${bug.body.uuid}/`, acme.adminKey)).status).toBe(404);
  });
  it('counts the whole list on every page: full pages, the last one, and past the end', async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) await call('POST', base, acme.adminKey, { name });
    const page = async (query: string) => {
      const { body } = await call('GET', `${base}${query}`, acme.adminKey);
      return [body.count, body.results.map((l: { name: string }) => l.name)];
    };
    expect(await page('')).toEqual([5, ['a', 'b', 'c', 'd', 'e']]);
    expect(await page('?page_size=2')).toEqual([5, ['a', 'b']]);
    expect(await page('?page_size=2&page=3')).toEqual([5, ['e']]);
    expect(await page('?page_size=5')).toEqual([5, ['a', 'b', 'c', 'd', 'e']]);
    expect(await page('?limit=2&offset=4')).toEqual([5, ['e']]);
    expect(await page('?limit=2&offset=5')).toEqual([5, []]);
    expect(await page('?limit=2&offset=9')).toEqual([5, []]);
    expect(await page('?search=zzz')).toEqual([0, []]);
  });
  it('organization labels (board null): every board offers them, a person makes one, its creator or an admin changes it', async () => {
    const org = '/v1/plan/labels/';
    const made = await t.request('POST', org, { key: acme.member.key, body: { name: 'needs design', color: '#8B5CF6', description: 'Waits for a designer' }, example: true });
    expect([made.status, made.body]).toEqual([201, {
      uuid: made.body.uuid, id: made.body.uuid, board: null, name: 'needs design', color: '#8B5CF6', description: 'Waits for a designer', archived_at: null, is_archived: false,
      created_at: '2026-03-10T15:00:00.000Z', updated_at: '2026-03-10T15:00:00.000Z',
    }]);
    // Unique among the organization's live labels; a board label of the same name is another label.
    expect((await call('POST', org, acme.adminKey, { name: 'Needs Design' })).body).toEqual({ name: ['A live label of this organization already has this name.'] });
    const boardLabel = await call('POST', base, acme.adminKey, { name: 'needs design' });
    expect(boardLabel.status).toBe(201);
    // With board: that board's label, by its managers.
    const viaBoard = await call('POST', org, acme.adminKey, { name: 'bug', board: board.uuid });
    expect([viaBoard.status, viaBoard.body.board]).toEqual([201, board.uuid]);
    expect((await call('POST', org, acme.member.key, { name: 'chore', board: board.uuid })).status).toBe(403);
    // Agent and organization keys make none.
    const agent = await call('POST', org, acme.agentKey, { name: 'bot' });
    expect([agent.status, agent.body.code]).toEqual([403, 'insufficient_scope']);
    // The board offers it: its list, its snapshot, its tasks (and a task moved to another board keeps it).
    const names = async (path: string) => (await call('GET', path, acme.member.key)).body.results.map((l: { name: string; board: string | null }) => `${l.name}@${l.board === null ? 'org' : 'board'}`);
    expect(await names(base)).toEqual(['bug@board', 'needs design@org', 'needs design@board']);
    const listed = await t.request('GET', `${org}?search=design`, { key: acme.member.key, example: true });
    expect(listed.body.results.map((l: { uuid: string }) => l.uuid).sort()).toEqual([boardLabel.body.uuid, made.body.uuid].sort());
    const snapshot = await call('GET', `/v1/plan/boards/${board.uuid}/board/`, acme.member.key);
    expect(snapshot.body.labels.map((l: { uuid: string }) => l.uuid)).toContain(made.body.uuid);
    const other = await createBoard(t, acme.adminKey, { key: 'OTHER' });
    const task = await call('POST', '/v1/plan/tasks/', acme.adminKey, { board: board.uuid, title: 'Logo', labels: [made.body.uuid, viaBoard.body.uuid] });
    expect([task.status, task.body.labels]).toEqual([201, [made.body.uuid, viaBoard.body.uuid].sort()]);
    const moved = await call('POST', `/v1/plan/tasks/${task.body.uuid}/move-board/`, acme.adminKey, { board: other.board.uuid });
    expect([moved.status, moved.body.labels]).toEqual([200, [made.body.uuid]]);
    // Another organization neither sees nor uses it.
    const globex = await t.seedOrganization({ name: 'Globex', plan: 'pro', beta: true });
    expect((await call('GET', `${org}${made.body.uuid}/`, globex.adminKey)).status).toBe(404);
    expect((await call('GET', org, globex.adminKey)).body.count).toBe(0);
    const theirs = await createBoard(t, globex.adminKey, { key: 'GLB' });
    expect((await call('POST', '/v1/plan/tasks/', globex.adminKey, { board: theirs.board.uuid, title: 'x', labels: [made.body.uuid] })).status).toBe(400);
    // Its creator or an admin changes it; only an admin deletes it (on no task).
    const one = `${org}${made.body.uuid}/`;
    const refused = await call('PATCH', one, acme.other.key, { color: '#000000' });
    expect([refused.status, refused.body.code]).toEqual([403, 'label_manager_required']);
    expect((await call('PATCH', one, acme.member.key, { color: '#111111' })).body.color).toBe('#111111');
    expect((await call('PATCH', one, acme.adminKey, { name: 'design' })).body.name).toBe('design');
    expect((await call('DELETE', one, acme.member.key)).body.code).toBe('label_manager_required');
    expect((await call('DELETE', one, acme.adminKey)).body.code).toBe('label_in_use');
    await call('PATCH', one, acme.adminKey, { is_archived: true });
    expect((await call('GET', org, acme.member.key)).body.results.map((l: { uuid: string }) => l.uuid)).not.toContain(made.body.uuid);
    await t.db('plan_task_labels').where({ label_uuid: made.body.uuid }).delete();
    expect((await call('DELETE', one, acme.adminKey)).status).toBe(204);
    expect((await call('GET', one, acme.adminKey)).status).toBe(404);
  });
});
