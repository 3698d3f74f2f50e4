import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { countRows, createBoard, insertTask, seedPlanOrg, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
import { MISSING } from '../../../../test/people-fixtures.ts';

const NOT_FOUND = { detail: 'Not found.', code: 'not_found' };

describe('Plan boards (CONTRACT §9; spec duplicate_board_key, task_boards_limit_reached, 404 rule)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  beforeEach(async () => ({ t, acme, call } = await startPlanApp()));
  afterEach(async () => t.close());

  it('creates a board with the default states; its creator is its first manager', async () => {
    const res = await call('POST', '/v1/plan/boards/', acme.member.key, { name: ' Platform ', key: 'PLAT', description: 'Core services' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: res.body.uuid, id: res.body.uuid, key: 'PLAT', name: 'Platform', description: 'Core services', visibility: 'org', project: null,
      created_by: acme.member.user.uuid, position: 'a0', archived_at: null, is_archived: false, created_at: '2026-03-10T15:00:00.000Z', updated_at: '2026-03-10T15:00:00.000Z',
    });
    const states = await call('GET', `/v1/plan/boards/${res.body.uuid}/states/`, acme.member.key);
    expect(states.body.results.map((s: Record<string, unknown>) => [s.name, s.category, s.position, s.is_default, s.color])).toEqual([
      ['Backlog', 'backlog', 0, false, '#95A2B3'],
      ['Todo', 'todo', 1, true, '#E2E2E2'],
      ['In Progress', 'in_progress', 2, false, '#F2C94C'],
      ['Done', 'done', 3, false, '#5E6AD2'],
      ['Canceled', 'canceled', 4, false, '#95A2B3'],
    ]);
    const members = await call('GET', `/v1/plan/boards/${res.body.uuid}/members/`, acme.member.key);
    expect(members.body.results).toEqual([{ uuid: expect.any(String), id: expect.any(String), user: { uuid: acme.member.user.uuid, id: acme.member.user.uuid, full_name: 'Mia Member', name: 'Mia Member', is_active: true }, role: 'manager', created_at: '2026-03-10T15:00:00.000Z',
      // The grant row the DailyBot client reads: a person's grant (no team).
      user_uuid: acme.member.user.uuid, name: 'Mia Member', subject_type: 'user', team_uuid: null, team_name: null,
    }]);
  });

  it('checks the key: 2–10 of A–Z and 0–9 starting with a letter; unique per organization, retired keys reserved (409 duplicate_board_key)', async () => {
    for (const key of ['p', 'plat', '1PLAT', 'ABCDEFGHIJK', 'PL-AT']) {
      const res = await call('POST', '/v1/plan/boards/', acme.adminKey, { name: 'x', key });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ key: ['Must be 2 to 10 characters A-Z and 0-9, starting with a letter.'] });
    }
    expect((await call('POST', '/v1/plan/boards/', acme.adminKey, { name: 'edge', key: 'AB' })).status).toBe(201);
    expect((await call('POST', '/v1/plan/boards/', acme.adminKey, { name: 'edge', key: 'ABCDEFGHIJ' })).status).toBe(201);
    const duplicate = await call('POST', '/v1/plan/boards/', acme.adminKey, { name: 'again', key: 'AB' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ detail: 'This board key is in use or was used before (retired keys stay reserved).', code: 'duplicate_board_key' });

    const { board } = await createBoard(t, acme.adminKey, { key: 'OLD' });
    expect((await call('PATCH', `/v1/plan/boards/${board.uuid}/`, acme.adminKey, { key: 'NEW' })).body.key).toBe('NEW');
    expect((await call('POST', '/v1/plan/boards/', acme.adminKey, { name: 'thief', key: 'OLD' })).body.code).toBe('duplicate_board_key');
    // The board itself may go back to a key it had.
    expect((await call('PATCH', `/v1/plan/boards/${board.uuid}/`, acme.adminKey, { key: 'OLD' })).body.key).toBe('OLD');
    expect((await call('PATCH', `/v1/plan/boards/${board.uuid}/`, acme.adminKey, { key: 'AB' })).body.code).toBe('duplicate_board_key');
    // A deleted board's keys stay reserved too; another organization has its own keys.
    await call('DELETE', `/v1/plan/boards/${board.uuid}/`, acme.adminKey);
    expect((await call('POST', '/v1/plan/boards/', acme.adminKey, { name: 'reuse', key: 'NEW' })).body.code).toBe('duplicate_board_key');
    const globex = await seedPlanOrg(t, { name: 'Globex' });
    expect((await call('POST', '/v1/plan/boards/', globex.adminKey, { name: 'theirs', key: 'OLD' })).status).toBe(201);
  });

  it('refuses unknown fields and blank names', async () => {
    expect((await call('POST', '/v1/plan/boards/', acme.adminKey, { name: 'x', key: 'XX', color: 'red' })).body).toEqual({ detail: 'Unknown field: color.', code: 'unknown_field', extra: { parameter: 'color' } });
    expect((await call('POST', '/v1/plan/boards/', acme.adminKey, { name: '   ', key: 'XX' })).body).toEqual({ name: ['Must not be blank.'] });
    expect((await call('POST', '/v1/plan/boards/', acme.adminKey, { name: 'x', key: 'XX', project: MISSING })).body).toEqual({ project: ['No project with this id.'] });
  });

  it('holds the plan ceiling: 3 live boards on the starter plans (402 task_boards_limit_reached); archived ones do not count', async () => {
    const basic = await seedPlanOrg(t, { name: 'Basic', plan: 'basic' });
    const token = await t.seedToken(basic.org.uuid, basic.admin.uuid);
    const create = (key: string) => t.request('POST', '/v1/plan/boards/', { token, body: { name: key, key } });
    const boards = [];
    for (const key of ['ONE', 'TWO', 'THREE']) boards.push((await create(key)).body);
    const refused = await create('FOUR');
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ detail: 'Your plan allows 3 live boards; archive one or upgrade.', code: 'task_boards_limit_reached', extra: { limit: 3, current: 3 } });
    await t.request('POST', `/v1/plan/boards/${boards[0].uuid}/archive/`, { token, body: {} });
    expect((await create('FOUR')).status).toBe(201);
    const restore = await t.request('POST', `/v1/plan/boards/${boards[0].uuid}/restore/`, { token, body: {} });
    expect(restore.status).toBe(402);
    expect(restore.body.code).toBe('task_boards_limit_reached');
    expect((await t.request('GET', '/v1/plan/entitlements/', { token })).body).toMatchObject({ plan: 'basic', limits: { boards: 3, projects: 1 }, usage: { boards: 3, projects: 0 } });
  });

  it('hides a members-only board from non-members: 404 with the body of an absent board, everywhere; filters naming it match nothing', async () => {
    const { board, states } = await createBoard(t, acme.adminKey, { visibility: 'members' });
    const label = await call('POST', `/v1/plan/boards/${board.uuid}/labels/`, acme.adminKey, { name: 'bug' });
    const paths: [string, string, unknown?][] = [
      ['GET', `/v1/plan/boards/${board.uuid}/`], ['PATCH', `/v1/plan/boards/${board.uuid}/`, { name: 'Mine' }], ['DELETE', `/v1/plan/boards/${board.uuid}/`],
      ['POST', `/v1/plan/boards/${board.uuid}/archive/`, {}], ['GET', `/v1/plan/boards/${board.uuid}/states/`], ['GET', `/v1/plan/boards/${board.uuid}/states/${states.Todo}/`],
      ['POST', `/v1/plan/boards/${board.uuid}/states/`, { name: 'QA', category: 'todo' }], ['GET', `/v1/plan/boards/${board.uuid}/labels/`],
      ['GET', `/v1/plan/boards/${board.uuid}/labels/${label.body.uuid}/`], ['GET', `/v1/plan/boards/${board.uuid}/members/`],
      ['GET', `/v1/plan/boards/${board.uuid}/mentionables/`], ['POST', `/v1/plan/boards/${board.uuid}/members/`, { user: acme.member.user.uuid }],
    ];
    for (const [method, path, body] of paths) {
      const absent = await call(method, path.replace(board.uuid, MISSING), acme.member.key, body);
      const hidden = await call(method, path, acme.member.key, body);
      expect(hidden.status, `${method} ${path}`).toBe(404);
      expect(hidden.body).toEqual(NOT_FOUND);
      expect(hidden.body).toEqual(absent.body);
    }
    expect((await call('GET', '/v1/plan/boards/', acme.member.key)).body.count).toBe(0);
    expect((await call('GET', `/v1/plan/boards/?member=${acme.admin.uuid}`, acme.member.key)).body.count).toBe(0);
    // Another organization sees nothing either, even as an admin.
    const globex = await seedPlanOrg(t, { name: 'Globex' });
    expect((await call('GET', `/v1/plan/boards/${board.uuid}/`, globex.adminKey)).body).toEqual(NOT_FOUND);
    // Granted, it appears; admins always see it.
    expect((await call('POST', `/v1/plan/boards/${board.uuid}/members/`, acme.adminKey, { user: acme.member.user.uuid })).status).toBe(201);
    expect((await call('GET', `/v1/plan/boards/${board.uuid}/`, acme.member.key)).status).toBe(200);
    expect((await call('GET', '/v1/plan/boards/', acme.member.key)).body.count).toBe(1);
    expect((await call('GET', '/v1/plan/boards/', acme.other.key)).body.count).toBe(0);
  });

  it('lets managers and admins manage a board; other members get 403 board_manager_required', async () => {
    const { board } = await createBoard(t, acme.adminKey);
    const refused = { detail: 'Only a manager of this board or an organization admin can do this.', code: 'board_manager_required' };
    expect((await call('PATCH', `/v1/plan/boards/${board.uuid}/`, acme.member.key, { name: 'Mine' })).body).toEqual(refused);
    expect((await call('POST', `/v1/plan/boards/${board.uuid}/states/`, acme.member.key, { name: 'QA', category: 'in_progress' })).body).toEqual(refused);
    expect((await call('POST', `/v1/plan/boards/${board.uuid}/labels/`, acme.member.key, { name: 'bug' })).body).toEqual(refused);
    expect((await call('POST', `/v1/plan/boards/${board.uuid}/members/`, acme.member.key, { user: acme.member.user.uuid })).body).toEqual(refused);
    // Members read everything on an org-visible board.
    expect((await call('GET', `/v1/plan/boards/${board.uuid}/labels/`, acme.member.key)).status).toBe(200);
    await call('POST', `/v1/plan/boards/${board.uuid}/members/`, acme.adminKey, { user: acme.member.user.uuid, role: 'manager' });
    expect((await call('PATCH', `/v1/plan/boards/${board.uuid}/`, acme.member.key, { name: 'Mine' })).body.name).toBe('Mine');
  });

  it('manages members: add (201), re-add with a role (200), change a role, remove; the last member of a members-only board stays (409)', async () => {
    const { board } = await createBoard(t, acme.adminKey, { visibility: 'members' });
    const path = `/v1/plan/boards/${board.uuid}/members/`;
    const added = await call('POST', path, acme.adminKey, { user: acme.member.user.uuid });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ user: { uuid: acme.member.user.uuid, full_name: 'Mia Member' }, role: 'member' });
    const again = await call('POST', path, acme.adminKey, { user: acme.member.user.uuid, role: 'manager' });
    expect(again.status).toBe(200);
    expect(again.body.role).toBe('manager');
    expect((await call('PATCH', `${path}${acme.member.user.uuid}/`, acme.adminKey, { role: 'member' })).body.role).toBe('member');
    expect((await call('PATCH', `${path}${acme.other.user.uuid}/`, acme.adminKey, { role: 'member' })).status).toBe(404);

    expect((await call('POST', path, acme.adminKey, { user: acme.guest.user.uuid })).body).toEqual({ user: ['Guest accounts cannot use Plan.'] });
    const globex = await seedPlanOrg(t, { name: 'Globex' });
    expect((await call('POST', path, acme.adminKey, { user: globex.admin.uuid })).body).toEqual({ user: ['No active member of your organization with this id.'] });

    // A member may leave; the admin (creator) removes the other; then the last one stays.
    const dry = await t.request('DELETE', `${path}${acme.member.user.uuid}/?dry_run=true`, { key: acme.member.key, example: true });
    expect(dry.body).toEqual({
      dry_run: true, status: 204, result: { deleted: { object_kind: 'board_member', uuid: added.body.uuid, user: acme.member.user.uuid } },
      changes: [{ object_kind: 'board_member', object_uuid: added.body.uuid, change_kind: 'deleted', changed_fields: [] }],
    });
    expect((await call('DELETE', `${path}${acme.member.user.uuid}/`, acme.member.key)).status).toBe(204);
    const last = await call('DELETE', `${path}${acme.admin.uuid}/`, acme.adminKey);
    expect(last.status).toBe(409);
    expect(last.body).toEqual({ detail: 'This is the last member of a members-only board; add someone else first, or make it visible to the organization.', code: 'last_grant_cannot_be_removed' });
    await call('PATCH', `/v1/plan/boards/${board.uuid}/`, acme.adminKey, { visibility: 'org' });
    expect((await call('DELETE', `${path}${acme.admin.uuid}/`, acme.adminKey)).status).toBe(204);
  });

  it('lists mentionables: people who can see the board (active, not guests); members-only: its members and the admins', async () => {
    const { board } = await createBoard(t, acme.adminKey);
    const names = async (uuid: string, query = '') =>
      (await call('GET', `/v1/plan/boards/${uuid}/mentionables/${query}`, acme.adminKey)).body.results.map((p: { full_name: string }) => p.full_name);
    expect(await names(board.uuid)).toEqual(['Ada Admin', 'Bot Member', 'Mia Member', 'Otto Member']);
    await t.db('users').where({ uuid: acme.other.user.uuid }).update({ is_active: false });
    expect(await names(board.uuid)).toEqual(['Ada Admin', 'Bot Member', 'Mia Member']);
    expect(await names(board.uuid, '?search=mi')).toEqual(['Ada Admin', 'Mia Member']);
    expect((await call('GET', `/v1/plan/boards/${board.uuid}/mentionables/?search=m`, acme.adminKey)).body.code).toBe('search_query_too_short');

    const secret = (await createBoard(t, acme.member.key, { key: 'SEC', visibility: 'members' })).board;
    expect(await names(secret.uuid)).toEqual(['Ada Admin', 'Bot Member', 'Mia Member']);
  });

  it('filters and orders the list; bad values answer 400 with their codes', async () => {
    const project = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' });
    await createBoard(t, acme.adminKey, { name: 'Zeta', key: 'ZZ', project: project.body.uuid });
    const { board } = await createBoard(t, acme.member.key, { name: 'Alpha', key: 'AA' });
    await call('POST', `/v1/plan/boards/${board.uuid}/archive/`, acme.member.key, {});
    const keys = async (query: string) => (await call('GET', `/v1/plan/boards/${query}`, acme.member.key)).body.results.map((b: { key: string }) => b.key);
    expect(await keys('')).toEqual(['ZZ']);
    expect(await keys('?include_archived=true&ordering=name')).toEqual(['AA', 'ZZ']);
    expect(await keys('?include_archived=true&ordering=-key')).toEqual(['ZZ', 'AA']);
    expect(await keys(`?project=${project.body.uuid}`)).toEqual(['ZZ']);
    expect(await keys('?include_archived=true&member=me')).toEqual(['AA']);
    expect(await keys('?search=zet')).toEqual(['ZZ']);

    expect((await call('GET', '/v1/plan/boards/?ordering=secret', acme.member.key)).body).toEqual({ detail: 'ordering must be one of: position, name, key, created_at, updated_at (prefix - for descending).', code: 'invalid_sort', extra: { parameter: 'ordering' } });
    expect((await call('GET', '/v1/plan/boards/?include_archived=maybe', acme.member.key)).body).toEqual({ detail: 'include_archived must be true or false.', code: 'invalid_filter_value', extra: { parameter: 'include_archived' } });
    expect((await call('GET', '/v1/plan/boards/?project=nope', acme.member.key)).body.code).toBe('invalid_filter_value');
    expect((await call('GET', `/v1/plan/boards/?search=${'x'.repeat(257)}`, acme.member.key)).body).toEqual({ detail: 'The search text has at most 256 characters.', code: 'search_query_too_long', extra: { parameter: 'search' } });
    // A parameter given twice counts with its last value (http/query.ts).
    expect(await keys('?include_archived=true&ordering=key&ordering=-key')).toEqual(['ZZ', 'AA']);
    // A project the caller cannot see matches nothing.
    const hidden = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Secret', visibility: 'members' });
    expect(await keys(`?project=${hidden.body.uuid}`)).toEqual([]);
  });

  it('archives, restores and deletes a board with its states, labels and tasks', async () => {
    const { board, states } = await createBoard(t, acme.adminKey);
    await insertTask(t, board, states.Todo);
    const archived = await call('POST', `/v1/plan/boards/${board.uuid}/archive/`, acme.adminKey, {});
    expect(archived.body).toMatchObject({ is_archived: true, archived_at: '2026-03-10T15:00:00.000Z' });
    expect((await call('POST', `/v1/plan/boards/${board.uuid}/restore/`, acme.adminKey, {})).body).toMatchObject({ is_archived: false, archived_at: null });
    expect((await call('DELETE', `/v1/plan/boards/${board.uuid}/`, acme.adminKey)).status).toBe(204);
    expect((await call('GET', `/v1/plan/boards/${board.uuid}/`, acme.adminKey)).status).toBe(404);
    for (const table of ['plan_states', 'plan_labels', 'plan_tasks', 'plan_board_members']) {
      expect(await countRows(t, table, (q) => q.where({ board_uuid: board.uuid })), table).toBe(0);
    }
  });
});
