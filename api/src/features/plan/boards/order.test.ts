import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { createBoard, seedPlanOrg, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';

const NOT_FOUND = { detail: 'Not found.', code: 'not_found' };

/**
 * The DailyBot client's later doors on the order of boards and projects (`board reorder`, `project reorder`,
 * `board move-preview`): what they answer, what they refuse, and that other organizations stay apart.
 */
describe('Plan board and project order, and a board\'s move between projects', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  beforeEach(async () => ({ t, acme, call } = await startPlanApp()));
  afterEach(async () => t.close());

  const names = async (path: string) => (await call('GET', path, acme.adminKey)).body.results.map((row: { name: string }) => row.name);

  it('places a board before or after a sibling, or last; both anchors, a stranger anchor or an unknown board are refused', async () => {
    const project = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' })).body;
    const boards: Record<string, { uuid: string }> = {};
    for (const [name, key] of [['Alpha', 'ALP'], ['Beta', 'BET'], ['Gamma', 'GAM']]) boards[name] = (await createBoard(t, acme.adminKey, { name, key, project: project.uuid })).board;
    const elsewhere = (await createBoard(t, acme.adminKey, { name: 'Elsewhere', key: 'ELS' })).board;
    const list = `/v1/plan/boards/?project=${project.uuid}`;
    expect(await names(list)).toEqual(['Alpha', 'Beta', 'Gamma']);

    const moved = await call('POST', `/v1/plan/boards/${boards.Gamma.uuid}/reorder/`, acme.adminKey, { before: boards.Alpha.uuid });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ uuid: boards.Gamma.uuid, name: 'Gamma', project: project.uuid });
    expect(moved.body.position < (await call('GET', `/v1/plan/boards/${boards.Alpha.uuid}/`, acme.adminKey)).body.position).toBe(true);
    expect(await names(list)).toEqual(['Gamma', 'Alpha', 'Beta']);
    await call('POST', `/v1/plan/boards/${boards.Gamma.uuid}/reorder/`, acme.adminKey, { after: boards.Alpha.uuid });
    expect(await names(list)).toEqual(['Alpha', 'Gamma', 'Beta']);
    // Neither anchor: last.
    await call('POST', `/v1/plan/boards/${boards.Alpha.uuid}/reorder/`, acme.adminKey, {});
    expect(await names(list)).toEqual(['Gamma', 'Beta', 'Alpha']);

    const both = await call('POST', `/v1/plan/boards/${boards.Alpha.uuid}/reorder/`, acme.adminKey, { before: boards.Beta.uuid, after: boards.Gamma.uuid });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ detail: 'Name one neighbour: before or after, not both.', code: 'reorder_anchor_invalid', extra: { parameter: 'after' } });
    expect((await call('POST', `/v1/plan/boards/${boards.Alpha.uuid}/reorder/`, acme.adminKey, { after: boards.Alpha.uuid })).body).toEqual({
      detail: 'A board or project cannot be placed next to itself.', code: 'reorder_anchor_invalid', extra: { parameter: 'after' },
    });
    // A board of another project is no sibling.
    const stranger = await call('POST', `/v1/plan/boards/${boards.Alpha.uuid}/reorder/`, acme.adminKey, { before: elsewhere.uuid });
    expect(stranger.status).toBe(400);
    expect(stranger.body).toEqual({
      detail: 'The neighbour must be a sibling you see (a board of the same project; a project of the organization).', code: 'reorder_anchor_invalid', extra: { parameter: 'before' },
    });
    expect(await names(list)).toEqual(['Gamma', 'Beta', 'Alpha']);
    expect((await call('POST', '/v1/plan/boards/0190c8f4-0000-7000-8000-000000000000/reorder/', acme.adminKey, {})).body).toEqual(NOT_FOUND);
    // Structure needs tasks:admin: an agent key is refused, a member who manages nothing too.
    expect((await call('POST', `/v1/plan/boards/${boards.Alpha.uuid}/reorder/`, acme.agentKey, {})).body.code).toBe('insufficient_scope');
    expect((await call('POST', `/v1/plan/boards/${boards.Alpha.uuid}/reorder/`, acme.member.key, {})).status).toBe(403);
  });

  it('moves a board into another project (its tasks lose the old project\'s milestones), after saying what would change', async () => {
    const launch = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' })).body;
    const docs = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Docs' })).body;
    const { board, states } = await createBoard(t, acme.adminKey, { project: launch.uuid });
    const milestone = (await call('POST', `/v1/plan/projects/${launch.uuid}/milestones/`, acme.adminKey, { name: 'Beta', target_date: '2026-04-01' })).body;
    const task = (await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: 'Ship', state: states.Todo })).body;
    await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: 'Plain', state: states.Todo });
    expect((await call('PATCH', `/v1/plan/tasks/${task.uuid}/`, acme.adminKey, { milestone: milestone.uuid })).status).toBe(200);

    const preview = await call('GET', `/v1/plan/boards/${board.uuid}/move-preview/?project=${docs.uuid}`, acme.adminKey);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      board: board.uuid, from_project_uuid: launch.uuid, to_project_uuid: docs.uuid, moves: true, tasks_count: 2, tasks_with_foreign_milestone: 1, goals_affected: 0,
    });
    // Into its own project: nothing moves, nothing is lost.
    expect((await call('GET', `/v1/plan/boards/${board.uuid}/move-preview/?project=${launch.uuid}`, acme.member.key)).body).toEqual({
      board: board.uuid, from_project_uuid: launch.uuid, to_project_uuid: launch.uuid, moves: false, tasks_count: 2, tasks_with_foreign_milestone: 0, goals_affected: 0,
    });
    // The preview wrote nothing.
    expect((await call('GET', `/v1/plan/tasks/${task.uuid}/`, acme.adminKey)).body.milestone).toBe(milestone.uuid);

    const missing = await call('GET', `/v1/plan/boards/${board.uuid}/move-preview/`, acme.adminKey);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ detail: 'project is required: the uuid of the project to move the board into.', code: 'invalid_filter_value', extra: { parameter: 'project' } });
    expect((await call('GET', `/v1/plan/boards/${board.uuid}/move-preview/?project=0190c8f4-0000-7000-8000-000000000000`, acme.adminKey)).body).toEqual({ project: ['No project with this id.'] });

    const moved = await call('POST', `/v1/plan/boards/${board.uuid}/reorder/`, acme.adminKey, { project: docs.uuid });
    expect(moved.status).toBe(200);
    expect(moved.body.project).toBe(docs.uuid);
    expect((await call('GET', `/v1/plan/tasks/${task.uuid}/`, acme.adminKey)).body.milestone).toBeNull();
    expect(await names(`/v1/plan/boards/?project=${docs.uuid}`)).toEqual(['Platform']);
  });

  it('places a project before or after another; refuses both anchors and keeps organizations apart', async () => {
    const rows: Record<string, { uuid: string }> = {};
    for (const name of ['One', 'Two', 'Three']) rows[name] = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name })).body;
    expect(await names('/v1/plan/projects/')).toEqual(['One', 'Two', 'Three']);
    const moved = await call('POST', `/v1/plan/projects/${rows.Three.uuid}/reorder/`, acme.adminKey, { before: rows.One.uuid });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ uuid: rows.Three.uuid, name: 'Three' });
    expect(await names('/v1/plan/projects/')).toEqual(['Three', 'One', 'Two']);
    await call('POST', `/v1/plan/projects/${rows.Three.uuid}/reorder/`, acme.adminKey, {});
    expect(await names('/v1/plan/projects/')).toEqual(['One', 'Two', 'Three']);
    expect((await call('POST', `/v1/plan/projects/${rows.One.uuid}/reorder/`, acme.adminKey, { before: rows.Two.uuid, after: rows.Three.uuid })).body.code).toBe('reorder_anchor_invalid');

    // Another organization's project is absent, as the anchor and as the project moved.
    const globex = await seedPlanOrg(t, { name: 'Globex' });
    const theirs = (await call('POST', '/v1/plan/projects/', globex.adminKey, { name: 'Theirs' })).body;
    expect((await call('POST', `/v1/plan/projects/${theirs.uuid}/reorder/`, acme.adminKey, {})).body).toEqual(NOT_FOUND);
    expect((await call('POST', `/v1/plan/projects/${rows.One.uuid}/reorder/`, acme.adminKey, { after: theirs.uuid })).body).toEqual({
      detail: 'The neighbour must be a sibling you see (a board of the same project; a project of the organization).', code: 'reorder_anchor_invalid', extra: { parameter: 'after' },
    });
    expect((await call('POST', `/v1/plan/boards/${(await createBoard(t, globex.adminKey)).board.uuid}/reorder/`, acme.adminKey, {})).body).toEqual(NOT_FOUND);
  });
});
