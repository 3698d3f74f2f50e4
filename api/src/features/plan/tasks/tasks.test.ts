import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, dumpPlanTables } from '../../../../test/plan-fixtures.ts';
import { boardMaker, startTaskApp } from '../../../../test/task-fixtures.ts';
import type { TaskApp } from '../../../../test/task-fixtures.ts';
import { readJson } from '../../../lib/json.ts';

/** Tasks (CONTRACT §9; spec "Plan behaviours", Errors, Limits): creation, reading, updates with versions, archive, duplicate, delete. */
describe('Plan tasks', () => {
  let app: TaskApp;
  beforeAll(async () => {
    app = await startTaskApp();
  });
  afterAll(async () => app.t.close());

  const newBoard = boardMaker(() => app, 'B');

  it('creates tasks with KEY-n from the board, answers the Task shape, and resolves them by uuid and by key', async () => {
    const { t, acme, call, board, states } = app;
    const res = await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, {
      title: '  Ship the beta ', description: 'Deploy to staging first.', priority: 2, estimate: 3.5, start_date: '2026-03-10', due_date: '2026-03-20',
      owner: acme.member.user.uuid,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: res.body.uuid, id: res.body.uuid, key: 'PLAT-1', title: 'Ship the beta', description: 'Deploy to staging first.', board: board.uuid,
      state: states.Todo, owner: acme.member.user.uuid, priority: 2, estimate: 3.5, start_date: '2026-03-10', due_date: '2026-03-20', labels: [],
      parent_task: null, milestone: null, version: 1, rank: res.body.rank, created_by: acme.admin.uuid, created_at: '2026-03-10T15:00:00.000Z',
      updated_at: '2026-03-10T15:00:00.000Z', completed_at: null, archived_at: null,
    });
    expect(res.headers.get('location')).toBe(`/v1/plan/tasks/${res.body.uuid}/`);
    expect(res.headers.get('etag')).toBe('"1"');
    // The other create path names the board in the body.
    const second = await call('POST', '/v1/plan/tasks/', acme.member.key, { board: board.uuid, title: 'Second', state: states.Done });
    expect(second.body).toMatchObject({ key: 'PLAT-2', state: states.Done, completed_at: '2026-03-10T15:00:00.000Z', created_by: acme.member.user.uuid });
    for (const ref of [res.body.uuid, 'PLAT-1', 'plat-1']) expect((await call('GET', `/v1/plan/tasks/${ref}/`, acme.member.key)).body).toEqual(res.body);
    for (const ref of ['PLAT-99', 'NOPE-1', 'PLAT-0', 'PLAT-01', 'junk', '0190c8f4-0000-7000-8000-000000000000']) {
      expect((await call('GET', `/v1/plan/tasks/${ref}/`, acme.adminKey)).body).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
    // The change log holds the task exactly as the API presented it.
    const change = await t.db('plan_changes').where({ object_uuid: res.body.uuid }).first();
    expect(change).toMatchObject({ object_kind: 'task', change_kind: 'created', board_uuid: board.uuid, task_uuid: res.body.uuid });
    expect(readJson(change!.snapshot, null)).toEqual(res.body);
    // Another organization's caller sees nothing, by uuid or key.
    const other = await t.seedOrganization({ name: 'Other', plan: 'pro', beta: true });
    for (const ref of [res.body.uuid, 'PLAT-1']) expect((await call('GET', `/v1/plan/tasks/${ref}/`, other.adminKey)).body).toEqual({ detail: 'Not found.', code: 'not_found' });
    expect((await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, other.adminKey, { title: 'x' })).status).toBe(404);
    expect((await call('POST', '/v1/plan/tasks/', other.adminKey, { board: board.uuid, title: 'x' })).body).toEqual({ board: ['No board with this id.'] });
  });

  it('answers 501 not_implemented for a milestone on creation; PATCH sets one of the board\'s project (milestone_not_on_project)', async () => {
    const { call, acme } = app;
    const project = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' });
    const otherProject = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Other' });
    const milestone = await call('POST', `/v1/plan/projects/${project.body.uuid}/milestones/`, acme.adminKey, { name: 'Beta' });
    const foreign = await call('POST', `/v1/plan/projects/${otherProject.body.uuid}/milestones/`, acme.adminKey, { name: 'GA' });
    const { board } = await newBoard({ project: project.body.uuid });
    const refused = await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: 'x', milestone: milestone.body.uuid });
    expect(refused.status).toBe(501);
    expect(refused.body).toEqual({ detail: 'A task is created without a milestone; set it with PATCH once the task exists.', code: 'not_implemented', extra: { parameter: 'milestone' } });
    const task = await app.tasks.create(board);
    expect((await call('PATCH', `/v1/plan/tasks/${task.uuid}/`, acme.adminKey, { milestone: milestone.body.uuid })).body).toMatchObject({ milestone: milestone.body.uuid, version: 2 });
    const wrong = await call('PATCH', `/v1/plan/tasks/${task.uuid}/`, acme.adminKey, { milestone: foreign.body.uuid });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ detail: `The milestone belongs to another project than board ${board.key}'s.`, code: 'milestone_not_on_project', extra: { parameter: 'milestone' } });
    const loose = await app.tasks.create(app.board);
    expect((await call('PATCH', `/v1/plan/tasks/${loose.uuid}/`, acme.adminKey, { milestone: milestone.body.uuid })).body.code).toBe('milestone_not_on_project');
    expect((await call('PATCH', `/v1/plan/tasks/${task.uuid}/`, acme.adminKey, { milestone: '0190c8f4-0000-7000-8000-000000000000' })).body).toEqual({ milestone: ['No milestone with this id.'] });
    expect((await call('PATCH', `/v1/plan/tasks/${task.uuid}/`, acme.adminKey, { milestone: null })).body).toMatchObject({ milestone: null, version: 3 });
  });

  it('takes a description of up to 50,000 characters (description_too_long past it, emoji counted as one)', async () => {
    const { call, acme, board } = app;
    const longest = 'é'.repeat(49_999) + '🚀';
    const ok = await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: 'Long', description: longest });
    expect(ok.status).toBe(201);
    expect(ok.body.description).toBe(longest);
    const tooLong = { detail: 'A task description holds at most 50000 characters.', code: 'description_too_long', extra: { max_length: 50_000 } };
    const refused = await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: 'Long', description: 'x'.repeat(50_001) });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(tooLong);
    expect((await call('PATCH', `/v1/plan/tasks/${ok.body.uuid}/`, acme.adminKey, { description: `${longest}!` })).body).toEqual(tooLong);
  });

  it('needs owners and participants who see the board (participant_cannot_access_board) and a state of the board (state_not_on_board)', async () => {
    const { t, call, acme } = app;
    const { board, states } = await newBoard({ visibility: 'members' });
    const refusal = (parameter: string, users: string[]) => ({
      detail: `${parameter === 'owner' ? 'The owner' : 'A participant'} cannot see board ${board.key}: every owner and participant must be an active member who sees the board.`,
      code: 'participant_cannot_access_board', extra: { parameter, users },
    });
    const base = `/v1/plan/boards/${board.uuid}/tasks/`;
    expect((await call('POST', base, acme.adminKey, { title: 'x', owner: acme.member.user.uuid })).body).toEqual(refusal('owner', [acme.member.user.uuid]));
    expect((await call('POST', base, acme.adminKey, { title: 'x', participants: [acme.guest.user.uuid, acme.admin.uuid] })).body).toEqual(refusal('participants', [acme.guest.user.uuid]));
    const stranger = await t.seedOrganization({ name: 'Strangers', beta: true });
    expect((await call('POST', base, acme.adminKey, { title: 'x', owner: stranger.admin.uuid })).body).toEqual(refusal('owner', [stranger.admin.uuid]));
    await call('POST', `/v1/plan/boards/${board.uuid}/members/`, acme.adminKey, { user: acme.member.user.uuid });
    const task = await call('POST', base, acme.adminKey, { title: 'x', owner: acme.member.user.uuid, participants: [acme.member.user.uuid, acme.admin.uuid] });
    expect(task.status).toBe(201);
    // Deactivated people can no longer be given tasks.
    await t.db('users').where({ uuid: acme.other.user.uuid }).update({ is_active: false });
    expect((await call('PATCH', `/v1/plan/tasks/${task.body.uuid}/`, acme.adminKey, { owner: acme.other.user.uuid })).body).toEqual(refusal('owner', [acme.other.user.uuid]));
    await t.db('users').where({ uuid: acme.other.user.uuid }).update({ is_active: true });

    const stateRefusal = { detail: `state must be a live state of board ${board.key}.`, code: 'state_not_on_board', extra: { parameter: 'state' } };
    expect((await call('POST', base, acme.adminKey, { title: 'x', state: app.states.Todo })).body).toEqual(stateRefusal);
    expect((await call('POST', base, acme.adminKey, { title: 'x', state: '0190c8f4-0000-7000-8000-000000000000' })).body).toEqual(stateRefusal);
    await call('POST', `/v1/plan/boards/${board.uuid}/states/${states.Backlog}/archive/`, acme.adminKey, {});
    expect((await call('PATCH', `/v1/plan/tasks/${task.body.uuid}/`, acme.adminKey, { state: states.Backlog })).body).toEqual(stateRefusal);
  });

  it('updates with version or If-Match: stale answers 409 version_conflict with current_version; both differing 400 version_precondition_ambiguous', async () => {
    const { t, call, acme, board, states } = app;
    const task = await app.tasks.create(board, { title: 'Versioned' });
    const path = `/v1/plan/tasks/${task.key}/`;
    const first = await call('PATCH', path, acme.adminKey, { title: 'Versioned twice', version: 1 });
    expect(first.body).toMatchObject({ title: 'Versioned twice', version: 2 });
    expect(first.headers.get('etag')).toBe('"2"');
    const stale = await call('PATCH', path, acme.adminKey, { title: 'Stale', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ detail: 'The task changed since it was loaded; it is now at version 2.', code: 'version_conflict', extra: { current_version: 2 } });
    expect((await call('PATCH', path, acme.adminKey, { title: 'Stale' }, { 'if-match': '"1"' })).body.code).toBe('version_conflict');
    expect((await call('PATCH', path, acme.adminKey, { title: 'Via If-Match' }, { 'if-match': 'W/"2"' })).body).toMatchObject({ title: 'Via If-Match', version: 3 });
    const ambiguous = await call('PATCH', path, acme.adminKey, { title: 'x', version: 3 }, { 'if-match': '"2"' });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body).toEqual({ detail: 'If-Match (2) and the body\'s version (3) differ; send one.', code: 'version_precondition_ambiguous', extra: { if_match: 2, version: 3 } });
    expect((await call('PATCH', path, acme.adminKey, { title: 'Both agree', version: 3 }, { 'if-match': '"3"' })).body.version).toBe(4);
    expect((await call('PATCH', path, acme.adminKey, { title: 'x' }, { 'if-match': 'yesterday' })).body).toEqual({
      detail: 'If-Match must be the task\'s version, as "3".', code: 'invalid_filter_value', extra: { parameter: 'If-Match' },
    });
    // Nothing to change changes nothing: no version, no change logged.
    const changes = await countRows(t, 'plan_changes', (q) => q.where({ object_uuid: task.uuid }));
    expect((await call('PATCH', path, acme.adminKey, { title: 'Both agree', priority: null })).body.version).toBe(4);
    expect(await countRows(t, 'plan_changes', (q) => q.where({ object_uuid: task.uuid }))).toBe(changes);
    // A state change is a move to the end of the new column; done completes, leaving done clears it.
    t.clock.advance(60_000);
    const done = await call('PATCH', path, acme.adminKey, { state: states.Done, priority: 1 });
    expect(done.body).toMatchObject({ state: states.Done, priority: 1, version: 5, completed_at: '2026-03-10T15:01:00.000Z', updated_at: '2026-03-10T15:01:00.000Z' });
    const moved = await t.db('plan_changes').where({ object_uuid: task.uuid }).orderBy('id', 'desc').first();
    expect([moved!.change_kind, readJson(moved!.changed_fields, [])]).toEqual(['moved', ['priority', 'state', 'rank', 'completed_at']]);
    expect((await call('PATCH', path, acme.adminKey, { state: states.Todo })).body.completed_at).toBeNull();
    // Dates in order; types strict.
    expect((await call('PATCH', path, acme.adminKey, { start_date: '2026-04-02', due_date: '2026-04-01' })).body).toEqual({ due_date: ['The due date cannot be before the start date.'] });
    expect((await call('PATCH', path, acme.adminKey, { priority: 6, due_date: '2026-02-30' })).body).toEqual({ priority: ['Ensure this value is less than or equal to 5.'], due_date: ['Must be a date as YYYY-MM-DD.'] });
    expect((await call('PATCH', path, acme.adminKey, { board: board.uuid })).body).toEqual({ detail: 'Unknown field: board.', code: 'unknown_field', extra: { parameter: 'board' } });
  });

  it('archives, restores and duplicates (403 task_archived for an archived one); deletes for its creator, managers and admins', async () => {
    const { t, call, acme, board, states } = app;
    const lead = await app.tasks.create(board, { title: 'Original', state: states['In Progress'], priority: 3, participants: [acme.member.user.uuid] });
    const after = await app.tasks.create(board, { title: 'Next', state: states['In Progress'] });
    const copy = await call('POST', `/v1/plan/tasks/${lead.key}/duplicate/`, acme.member.key, {});
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ title: 'Original', state: states['In Progress'], priority: 3, version: 1, created_by: acme.member.user.uuid });
    expect(copy.body.key).not.toBe(lead.key);
    // Right after the original, before the task that followed it.
    expect(lead.rank < copy.body.rank && copy.body.rank < after.rank).toBe(true);
    expect((await call('GET', `/v1/plan/tasks/${copy.body.uuid}/?include=participants`, acme.member.key)).body.participants).toEqual({ count: 1, next: null, previous: null, results: [acme.member.user.uuid] });
    expect((await call('POST', `/v1/plan/tasks/${lead.key}/duplicate/`, acme.member.key, { title: 'Renamed copy' })).body.title).toBe('Renamed copy');

    const archived = await call('POST', `/v1/plan/tasks/${lead.key}/archive/`, acme.member.key, {});
    expect(archived.body).toMatchObject({ archived_at: '2026-03-10T15:01:00.000Z', version: 2 });
    const refused = await call('POST', `/v1/plan/tasks/${lead.key}/duplicate/`, acme.member.key, {});
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'This task is archived; restore it first.', code: 'task_archived' });
    expect((await call('POST', `/v1/plan/tasks/${lead.key}/restore/`, acme.member.key, {})).body).toMatchObject({ archived_at: null, version: 3, state: states['In Progress'] });

    // Deletion: not for a member who neither created it nor manages the board.
    const forbidden = await call('DELETE', `/v1/plan/tasks/${lead.key}/`, acme.member.key);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('task_delete_forbidden');
    const child = await call('POST', `/v1/plan/tasks/${lead.key}/children/`, acme.member.key, { title: 'Child' });
    const before = await dumpPlanTables(t);
    const dry = await call('DELETE', `/v1/plan/tasks/${lead.key}/?dry_run=true`, acme.adminKey);
    expect(dry.body).toMatchObject({ dry_run: true, status: 204, result: { deleted: { object_kind: 'task', uuid: lead.uuid, key: lead.key }, detached_subtasks: 1, removed_relations: 0 } });
    expect(await dumpPlanTables(t)).toBe(before);
    expect((await call('DELETE', `/v1/plan/tasks/${lead.key}/`, acme.adminKey)).status).toBe(204);
    expect((await call('GET', `/v1/plan/tasks/${lead.key}/`, acme.adminKey)).status).toBe(404);
    expect((await call('GET', `/v1/plan/tasks/${child.body.uuid}/`, acme.adminKey)).body).toMatchObject({ parent_task: null, version: 2 });
    // The creator deletes their own.
    expect((await call('DELETE', `/v1/plan/tasks/${copy.body.uuid}/`, acme.member.key)).status).toBe(204);
  });

  it('adds, removes and replaces labels in a batch; archived labels stay but are not added', async () => {
    const { call, acme } = app;
    const { board } = await newBoard();
    const label = async (name: string) => (await call('POST', `/v1/plan/boards/${board.uuid}/labels/`, acme.adminKey, { name })).body.uuid as string;
    const [bug, ui, old] = [await label('bug'), await label('ui'), await label('old')];
    const elsewhere = (await call('POST', `/v1/plan/boards/${app.board.uuid}/labels/`, acme.adminKey, { name: 'elsewhere' })).body.uuid;
    const task = await app.tasks.create(board, { labels: [old] });
    const batch = (body: unknown) => call('POST', `/v1/plan/tasks/${task.uuid}/labels/batch/`, acme.adminKey, body);
    await call('POST', `/v1/plan/boards/${board.uuid}/labels/${old}/archive/`, acme.adminKey, {});
    expect((await batch({ mode: 'add', labels: [bug, ui] })).body).toMatchObject({ labels: [bug, ui, old].sort(), version: 2 });
    expect((await batch({ mode: 'remove', labels: [ui] })).body).toMatchObject({ labels: [bug, old].sort(), version: 3 });
    expect((await batch({ mode: 'replace', labels: [ui] })).body).toMatchObject({ labels: [ui], version: 4 });
    expect((await batch({ mode: 'add', labels: [old] })).body).toEqual({ labels: [`Not a live label of board ${board.key}: ${old}.`] });
    expect((await batch({ mode: 'add', labels: [elsewhere] })).body).toEqual({ labels: [`Not a live label of board ${board.key}: ${elsewhere}.`] });
    expect((await batch({ mode: 'toggle', labels: [] })).body).toEqual({ mode: ['Must be one of: add, remove, replace.'] });
    // The same labels again change nothing.
    expect((await batch({ mode: 'add', labels: [ui] })).body.version).toBe(4);
  });

  it('keeps participants (who must see the board) and each person\'s subscription; agents have no subscription', async () => {
    const { call, acme, board } = app;
    const task = await app.tasks.create(board, { owner: acme.member.user.uuid });
    const participants = `/v1/plan/tasks/${task.key}/participants/`;
    const added = await call('POST', participants, acme.adminKey, { user: acme.other.user.uuid });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ uuid: acme.other.user.uuid, id: acme.other.user.uuid, full_name: 'Otto Member', name: 'Otto Member' });
    expect((await call('POST', participants, acme.adminKey, { user: acme.other.user.uuid })).status).toBe(200);
    expect((await call('POST', participants, acme.adminKey, { user: acme.guest.user.uuid })).body.code).toBe('participant_cannot_access_board');
    expect((await call('GET', participants, acme.member.key)).body).toMatchObject({ count: 1, results: [{ full_name: 'Otto Member' }] });
    // The version is the task's, not its participants'.
    expect((await app.tasks.get(task.key)).version).toBe(1);

    const subscription = `/v1/plan/tasks/${task.key}/subscription/`;
    expect((await call('GET', subscription, acme.member.key)).body).toEqual({ task: task.uuid, subscribed: true, reason: 'owner' });
    expect((await call('GET', subscription, acme.other.key)).body).toEqual({ task: task.uuid, subscribed: true, reason: 'participant' });
    expect((await call('GET', subscription, acme.adminKey)).body).toEqual({ task: task.uuid, subscribed: true, reason: 'creator' });
    expect((await call('PUT', subscription, acme.member.key, { subscribed: false })).body).toEqual({ task: task.uuid, subscribed: false, reason: 'manual' });
    expect((await call('GET', subscription, acme.member.key)).body).toEqual({ task: task.uuid, subscribed: false, reason: 'manual' });
    const agent = await call('GET', subscription, acme.agentKey);
    expect(agent.status).toBe(403);
    expect(agent.body.code).toBe('insufficient_scope');

    const dryRemoval = await call('DELETE', `${participants}${acme.other.user.uuid}/?dry_run=true`, acme.adminKey);
    expect(dryRemoval.status).toBe(200);
    expect(dryRemoval.body).toMatchObject({ dry_run: true, status: 204 });
    expect((await call('DELETE', `${participants}${acme.other.user.uuid}/`, acme.adminKey)).status).toBe(204);
    expect((await call('DELETE', `${participants}${acme.other.user.uuid}/`, acme.adminKey)).status).toBe(404);
    expect((await call('GET', subscription, acme.other.key)).body).toEqual({ task: task.uuid, subscribed: false, reason: null });
  });

  it('records tasks.created, updated, moved, archived and deleted organization events through the outbox', async () => {
    const { t, call, acme } = app;
    const { createSubscription } = await import('../../webhooks/service.ts');
    const { lookupCredential } = await import('../../../auth/credentials.ts');
    const { sha256Hex } = await import('../../../lib/secrets.ts');
    const admin = await lookupCredential(t.db, { kind: 'api_key', hash: sha256Hex(acme.adminKey) }, t.clock.now());
    if (!admin.ok) throw new Error('no admin');
    await createSubscription(t.db, t.deps.secretBox, { allowPrivate: true }, admin.actor, { hook_url: 'https://127.0.0.1:9/events', subscriptions: ['tasks.*'] }, t.clock.now());
    const { board, states } = await newBoard();
    const task = await app.tasks.create(board, {}, { 'x-service-agent-name': 'Planner%20bot' });
    await call('PATCH', `/v1/plan/tasks/${task.uuid}/`, acme.adminKey, { title: 'Renamed' });
    await call('POST', `/v1/plan/tasks/${task.uuid}/move/`, acme.adminKey, { state: states.Done });
    await call('POST', `/v1/plan/tasks/${task.uuid}/archive/`, acme.adminKey, {});
    await call('DELETE', `/v1/plan/tasks/${task.uuid}/`, acme.adminKey);
    const events = await t.db('organization_events').where('event', 'like', 'tasks.%').orderBy('uuid');
    expect(events.map((e) => e.event)).toEqual(['tasks.created', 'tasks.updated', 'tasks.moved', 'tasks.archived', 'tasks.deleted']);
    expect(readJson<Record<string, unknown>>(events[0].payload, {})).toMatchObject({ object_uuid: task.uuid, agent_name: 'Planner bot', task: { key: task.key, title: 'A task' } });
    expect(readJson<Record<string, unknown>>(events[4].payload, {})).toMatchObject({ object_uuid: task.uuid, task: null });
  });

  it('refuses writes to keys without tasks:write and deletions without tasks:admin', async () => {
    const { call, acme, board } = app;
    const task = await app.tasks.create(board);
    const key = async (scopes: string[]) => (await call('POST', '/v1/api-keys/', acme.adminKey, { name: scopes.join(), scopes })).body.key as string;
    const reader = await key(['tasks:read']);
    const writer = await key(['tasks:write']);
    expect((await call('GET', `/v1/plan/tasks/${task.key}/`, reader)).status).toBe(200);
    expect((await call('PATCH', `/v1/plan/tasks/${task.key}/`, reader, { title: 'x' })).body).toEqual({ detail: 'This key\'s scopes do not include tasks:write.', code: 'insufficient_scope', extra: { required_scope: 'tasks:write' } });
    expect((await call('PATCH', `/v1/plan/tasks/${task.key}/`, writer, { title: 'x' })).status).toBe(200);
    expect((await call('DELETE', `/v1/plan/tasks/${task.key}/`, writer)).body).toEqual({ detail: 'This key\'s scopes do not include tasks:admin.', code: 'insufficient_scope', extra: { required_scope: 'tasks:admin' } });
  });
});
