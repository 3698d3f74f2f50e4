import { ValidationFailed, conflict, notFound } from '../../../lib/errors.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { assertCeiling } from '../entitlements/ceilings.ts';
import { orNull, visibleGoal, visibleProject, whereVisible } from '../frame/access.ts';
import { lockBoards, writableProject } from '../frame/locks.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import type { ContainerFilters } from '../frame/lists.ts';
import { unlessTaken } from '../frame/db-errors.ts';
import { nameKey } from '../frame/presenters.ts';
import { lastPosition, positionFor } from '../frame/order.ts';
import { byOrdering, pageOf, whereListed } from '../frame/lists.ts';
import { addMember } from '../members/service.ts';
import { removeAttachmentsOf } from '../files/repository.ts';
import { removeReactionsOf } from '../emoji/service.ts';
import { detachMilestones } from '../tasks/repository.ts';
import { indexProject } from '../search/index.ts';
import { presentBoard } from '../boards/presenter.ts';
import { presentProject } from './presenter.ts';
import type { CreateProjectInput, UpdateProjectInput } from './schema.ts';
import type { BoardRow, ProjectRow } from '../../../db/tables.ts';


export interface ProjectFilters extends ContainerFilters {
  goal?: string;
}

/** Against every project of the organization, archived ones included (spec: project_name_conflict). */
const nameConflict = () => conflict('project_name_conflict', 'A live or archived project already has this name.');

export async function listProjects(r: PlanRead, filters: ProjectFilters, page: PageRequest): Promise<{ count: number; rows: ProjectRow[] }> {
  const base = () => {
    const query = whereListed(whereVisible(r.db('plan_projects as p'), r.db, r.actor, 'project', 'p'), filters, 'p.');
    if (filters.goal) query.andWhere('p.goal_uuid', filters.goal);
    if (filters.visibility) query.andWhere('p.visibility', filters.visibility);
    if (filters.member) {
      query.whereExists(r.db('plan_project_members as m').select(r.db.raw('1')).whereRaw('m.project_uuid = p.uuid').andWhere('m.user_uuid', filters.member));
    }
    return query;
  };
  return pageOf(base, page, (query) => byOrdering(filters.ordering, 'p.')(query.select('p.*')));
}

/** How many live boards the caller sees in each project (the DailyBot client's `board_count`). */
export async function boardCounts(r: PlanRead, projectUuids: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>(projectUuids.map((uuid) => [uuid, 0]));
  if (projectUuids.length === 0) return counts;
  const rows: { project_uuid: string; n: number | string }[] = await whereVisible(r.db('plan_boards as b'), r.db, r.actor, 'board', 'b')
    .whereIn('b.project_uuid', projectUuids)
    .whereNull('b.archived_at')
    .groupBy('b.project_uuid')
    .select('b.project_uuid', r.db.raw('count(*) as n'));
  for (const row of rows) counts.set(row.project_uuid, Number(row.n));
  return counts;
}

export async function getProject(r: PlanRead, uuid: string): Promise<ProjectRow> {
  return (await visibleProject<ProjectRow>(r.db, r.actor, uuid)).row;
}

async function assertNameFree(w: PlanWrite, key: string, except: string | null): Promise<void> {
  const taken = await w.db('plan_projects').where({ organization_uuid: w.actor.organization.uuid, name_key: key }).first('uuid');
  if (taken && taken.uuid !== except) throw nameConflict();
}

/** A goal named in a body: one of the organization's live goals, else a field error. */
async function goalField(w: PlanWrite, goal: string | null | undefined): Promise<string | null | undefined> {
  if (goal === undefined || goal === null) return goal;
  const row = await orNull(visibleGoal(w.db, w.actor, goal));
  if (!row) throw new ValidationFailed({ goal: ['No goal with this id.'] });
  if (row.archived_at !== null) throw new ValidationFailed({ goal: ['This goal is archived.'] });
  return row.uuid;
}

export async function recordProject(w: PlanWrite, row: ProjectRow, change: 'created' | 'updated' | 'archived' | 'restored', fields: string[] = []): Promise<ProjectRow> {
  if (change === 'created' || fields.includes('name') || fields.includes('description')) await indexProject(w.db, row);
  await w.changes.record({ kind: 'project', uuid: row.uuid, change, board: null, project: row.uuid, fields, snapshot: presentProject(row) });
  return row;
}

export async function createProject(w: PlanWrite, input: CreateProjectInput): Promise<ProjectRow> {
  await assertCeiling(w, 'projects');
  const name = input.name.trim();
  await assertNameFree(w, nameKey(name), null);
  const row: ProjectRow = {
    uuid: uuidv7(w.now.getTime()),
    organization_uuid: w.actor.organization.uuid,
    goal_uuid: (await goalField(w, input.goal)) ?? null,
    name,
    name_key: nameKey(name),
    description: input.description ?? '',
    visibility: input.visibility ?? 'org',
    created_by_uuid: w.actor.user.uuid,
    position: await lastPosition(w.db, 'plan_projects', w.actor.organization.uuid),
    archived_at: null,
    created_at: w.now.toISOString(),
    updated_at: w.now.toISOString(),
    start_date: input.start_date ?? null,
    target_date: input.target_date ?? null,
    health: input.health ?? null,
  };
  await unlessTaken(() => w.db('plan_projects').insert(row), nameConflict);
  await recordProject(w, row, 'created');
  // Its creator manages it (and keeps a members-only project visible to someone).
  await addMember(w, 'project', row.uuid, w.actor.user.uuid, 'manager');
  return row;
}

export async function updateProject(w: PlanWrite, uuid: string, input: UpdateProjectInput): Promise<ProjectRow> {
  const { row: project } = await writableProject<ProjectRow>(w, uuid);
  const changes: Partial<ProjectRow> = {};
  if (input.name !== undefined && input.name.trim() !== project.name) {
    const name = input.name.trim();
    await assertNameFree(w, nameKey(name), project.uuid);
    Object.assign(changes, { name, name_key: nameKey(name) });
  }
  if (input.description !== undefined && input.description !== project.description) changes.description = input.description;
  if (input.goal !== undefined && input.goal !== project.goal_uuid) changes.goal_uuid = (await goalField(w, input.goal)) ?? null;
  if (input.visibility !== undefined && input.visibility !== project.visibility) changes.visibility = input.visibility;
  for (const field of ['start_date', 'target_date', 'health'] as const) {
    if (input[field] !== undefined && input[field] !== (project[field] ?? null)) changes[field] = input[field];
  }
  return applyProjectChanges(w, project, changes);
}

export async function applyProjectChanges(w: PlanWrite, project: ProjectRow, changes: Partial<ProjectRow>): Promise<ProjectRow> {
  const fields = Object.keys(changes).filter((f) => f !== 'name_key').map((f) => (f === 'goal_uuid' ? 'goal' : f));
  if (fields.length === 0) return project;
  const updated = { ...project, ...changes, updated_at: w.now.toISOString() };
  await unlessTaken(() => w.db('plan_projects').where({ uuid: project.uuid }).update({ ...changes, updated_at: updated.updated_at }), nameConflict);
  return recordProject(w, updated, 'updated', fields);
}

/** `POST …/reorder/`: the project's place in the organization's order, before or after another it sees, or last. */
export async function reorderProject(w: PlanWrite, uuid: string, anchor: { before?: string | null; after?: string | null }): Promise<ProjectRow> {
  const { row: project } = await writableProject<ProjectRow>(w, uuid);
  const isSibling = async (other: string) => (await orNull(visibleProject(w.db, w.actor, other))) !== null;
  const position = await positionFor(w.db, 'plan_projects', project.organization_uuid, project.uuid, anchor, isSibling);
  return applyProjectChanges(w, project, position === project.position ? {} : { position });
}

export async function archiveProject(w: PlanWrite, uuid: string): Promise<ProjectRow> {
  const { row: project } = await writableProject<ProjectRow>(w, uuid);
  if (project.archived_at !== null) return project;
  const updated = { ...project, archived_at: w.now.toISOString(), updated_at: w.now.toISOString() };
  await w.db('plan_projects').where({ uuid }).update({ archived_at: updated.archived_at, updated_at: updated.updated_at });
  return recordProject(w, updated, 'archived');
}

/** Restoring counts against the plan's ceiling again. */
export async function restoreProject(w: PlanWrite, uuid: string): Promise<ProjectRow> {
  const { row: project } = await writableProject<ProjectRow>(w, uuid);
  if (project.archived_at === null) return project;
  await assertCeiling(w, 'projects');
  const updated = { ...project, archived_at: null, updated_at: w.now.toISOString() };
  await w.db('plan_projects').where({ uuid }).update({ archived_at: null, updated_at: updated.updated_at });
  return recordProject(w, updated, 'restored');
}

/** Deletes the project with its members, milestones and updates; its boards and tasks stay, detached. */
export async function deleteProject(w: PlanWrite, uuid: string) {
  const { row: project } = await writableProject<ProjectRow>(w, uuid);
  const count = async (table: string) => Number((await w.db(table).where({ project_uuid: uuid }).count({ count: '*' }))[0].count);
  const milestones: string[] = (await w.db('plan_milestones').where({ project_uuid: uuid }).select('uuid')).map((m: { uuid: string }) => m.uuid);
  // After the organization's stream, every board the deletion logs on, in the order: its own, and its milestones' tasks'.
  const own: { uuid: string }[] = await w.db('plan_boards').where({ project_uuid: uuid }).select('uuid');
  const ofTasks: { board_uuid: string }[] = await w.db('plan_tasks').whereIn('milestone_uuid', milestones).distinct('board_uuid');
  await lockBoards(w.db, [...own.map((b) => b.uuid), ...ofTasks.map((t) => t.board_uuid)]);
  const updates: string[] = (await w.db('plan_project_updates').where({ project_uuid: uuid }).select('uuid')).map((u: { uuid: string }) => u.uuid);
  const cascade = {
    members: await count('plan_project_members'),
    milestones: milestones.length,
    updates: await count('plan_project_updates'),
    boards_detached: await detachBoards(w, uuid),
    tasks_detached: await detachMilestones(w, milestones),
    attachments: (await removeAttachmentsOf(w, 'project', [uuid])) + (await removeAttachmentsOf(w, 'project_update', updates)),
  };
  await removeReactionsOf(w, 'project_update', updates);
  await w.db('plan_projects').where({ uuid }).delete();
  await w.changes.record({ kind: 'project', uuid, change: 'deleted', board: null, project: uuid, snapshot: null });
  return { deleted: { object_kind: 'project', uuid, name: project.name }, cascade };
}

/** The boards of a deleted project lose their project (one change each, on the board's stream). */
async function detachBoards(w: PlanWrite, projectUuid: string): Promise<number> {
  const boards: BoardRow[] = await w.db('plan_boards').where({ project_uuid: projectUuid });
  for (const board of boards) {
    const updated = { ...board, project_uuid: null, updated_at: w.now.toISOString() };
    await w.db('plan_boards').where({ uuid: board.uuid }).update({ project_uuid: null, updated_at: updated.updated_at });
    await w.changes.record({ kind: 'board', uuid: board.uuid, change: 'updated', board: board.uuid, fields: ['project'], snapshot: presentBoard(updated) });
  }
  return boards.length;
}

/** The projects linked to a goal that the caller may see. */
export async function listGoalProjects(r: PlanRead, goalUuid: string, page: PageRequest): Promise<{ count: number; rows: ProjectRow[] }> {
  await visibleGoal(r.db, r.actor, goalUuid);
  return listProjects(r, { includeArchived: true, goal: goalUuid, ordering: { column: 'name_key', order: 'asc' } }, page);
}

/** Links a project to a goal (a project has at most one goal: linking moves it). */
export async function linkGoalProject(w: PlanWrite, goalUuid: string, projectUuid: string): Promise<ProjectRow> {
  const goal = await visibleGoal(w.db, w.actor, goalUuid);
  const project = await orNull(getProject(w, projectUuid));
  if (!project) throw new ValidationFailed({ project: ['No project with this id.'] });
  if (goal.archived_at !== null) throw new ValidationFailed({ non_field_errors: ['This goal is archived.'] });
  return applyProjectChanges(w, project, project.goal_uuid === goal.uuid ? {} : { goal_uuid: goal.uuid });
}

export async function unlinkGoalProject(w: PlanWrite, goalUuid: string, projectUuid: string) {
  await visibleGoal(w.db, w.actor, goalUuid);
  const project = await getProject(w, projectUuid);
  if (project.goal_uuid !== goalUuid) throw notFound();
  await applyProjectChanges(w, project, { goal_uuid: null });
  return { unlinked: { goal: goalUuid, project: projectUuid } };
}
