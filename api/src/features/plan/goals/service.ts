import { conflict, invalidFilter } from '../../../lib/errors.ts';
import { visibleGoal } from '../frame/access.ts';
import { lockOrganizationStream } from '../frame/locks.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import type { PageRequest } from '../../../lib/page.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { unlessTaken } from '../frame/db-errors.ts';
import { nameKey } from '../frame/presenters.ts';
import { byOrdering, pageOf, whereListed } from '../frame/lists.ts';
import type { Ordering } from '../frame/lists.ts';
import { removeAttachmentsOf } from '../files/repository.ts';
import { presentProject } from '../projects/presenter.ts';
import { presentGoal } from './presenter.ts';
import type { CreateGoalInput, UpdateGoalInput } from './schema.ts';
import type { GoalRow, ProjectRow } from '../../../db/tables.ts';


export interface GoalFilters {
  includeArchived: boolean;
  search?: string;
  ordering: Ordering;
}

const nameConflict = () => conflict('goal_name_conflict', 'A live goal already has this name.');

export async function listGoals(r: PlanRead, filters: GoalFilters, page: PageRequest): Promise<{ count: number; rows: GoalRow[] }> {
  const base = () => whereListed(r.db('plan_goals').where({ organization_uuid: r.actor.organization.uuid }), filters);
  return pageOf(base, page, byOrdering(filters.ordering));
}

/** Goals belong to the organization: every non-guest member sees them. */
export const getGoal = (r: PlanRead, uuid: string): Promise<GoalRow> => visibleGoal(r.db, r.actor, uuid);

async function assertNameFree(w: PlanWrite, key: string, except: string | null): Promise<void> {
  const taken = await w.db('plan_goals').where({ organization_uuid: w.actor.organization.uuid, name_key: key }).whereNull('archived_at').first('uuid');
  if (taken && taken.uuid !== except) throw nameConflict();
}

async function recordGoal(w: PlanWrite, row: GoalRow, change: 'created' | 'updated' | 'archived' | 'restored', fields: string[] = []): Promise<GoalRow> {
  await w.changes.record({ kind: 'goal', uuid: row.uuid, change, board: null, fields, snapshot: presentGoal(row) });
  return row;
}

export async function createGoal(w: PlanWrite, input: CreateGoalInput): Promise<GoalRow> {
  const name = input.name.trim();
  await assertNameFree(w, nameKey(name), null);
  const row: GoalRow = {
    uuid: uuidv7(w.now.getTime()),
    organization_uuid: w.actor.organization.uuid,
    name,
    name_key: nameKey(name),
    description: input.description ?? '',
    created_by_uuid: w.actor.user.uuid,
    archived_at: null,
    created_at: w.now.toISOString(),
    updated_at: w.now.toISOString(),
    period_start: input.period_start ?? null,
    period_end: input.period_end ?? null,
    status: input.status ?? null,
  };
  assertPeriod(row.period_start ?? null, row.period_end ?? null);
  await unlessTaken(() => w.db('plan_goals').insert(row), nameConflict);
  return recordGoal(w, row, 'created');
}

export async function updateGoal(w: PlanWrite, uuid: string, input: UpdateGoalInput): Promise<GoalRow> {
  await lockOrganizationStream(w);
  const goal = await getGoal(w, uuid);
  const changes: Partial<GoalRow> = {};
  if (input.name !== undefined && input.name.trim() !== goal.name) {
    const name = input.name.trim();
    // An archived goal keeps its name reserved only against live ones; renaming it checks live goals too.
    if (goal.archived_at === null) await assertNameFree(w, nameKey(name), goal.uuid);
    Object.assign(changes, { name, name_key: nameKey(name) });
  }
  if (input.description !== undefined && input.description !== goal.description) changes.description = input.description;
  for (const field of ['period_start', 'period_end', 'status'] as const) {
    if (input[field] !== undefined && input[field] !== (goal[field] ?? null)) changes[field] = input[field];
  }
  assertPeriod(changes.period_start !== undefined ? changes.period_start : (goal.period_start ?? null), changes.period_end !== undefined ? changes.period_end : (goal.period_end ?? null));
  const fields = Object.keys(changes).filter((f) => f !== 'name_key');
  if (fields.length === 0) return goal;
  const updated = { ...goal, ...changes, updated_at: w.now.toISOString() };
  await unlessTaken(() => w.db('plan_goals').where({ uuid }).update({ ...changes, updated_at: updated.updated_at }), nameConflict);
  return recordGoal(w, updated, 'updated', fields);
}

export async function archiveGoal(w: PlanWrite, uuid: string): Promise<GoalRow> {
  await lockOrganizationStream(w);
  const goal = await getGoal(w, uuid);
  if (goal.archived_at !== null) return goal;
  const updated = { ...goal, archived_at: w.now.toISOString(), updated_at: w.now.toISOString() };
  await w.db('plan_goals').where({ uuid }).update({ archived_at: updated.archived_at, updated_at: updated.updated_at });
  return recordGoal(w, updated, 'archived');
}

/** Restoring checks the name again: a live goal may have taken it meanwhile (409 goal_name_conflict). */
export async function restoreGoal(w: PlanWrite, uuid: string): Promise<GoalRow> {
  await lockOrganizationStream(w);
  const goal = await getGoal(w, uuid);
  if (goal.archived_at === null) return goal;
  await assertNameFree(w, goal.name_key, goal.uuid);
  const updated = { ...goal, archived_at: null, updated_at: w.now.toISOString() };
  await unlessTaken(() => w.db('plan_goals').where({ uuid }).update({ archived_at: null, updated_at: updated.updated_at }), nameConflict);
  return recordGoal(w, updated, 'restored');
}

/** Deletes the goal; its projects stay, unlinked (one change each). */
export async function deleteGoal(w: PlanWrite, uuid: string) {
  await lockOrganizationStream(w);
  const goal = await getGoal(w, uuid);
  const projects: ProjectRow[] = await w.db('plan_projects').where({ goal_uuid: uuid });
  for (const project of projects) {
    const updated = { ...project, goal_uuid: null, updated_at: w.now.toISOString() };
    await w.db('plan_projects').where({ uuid: project.uuid }).update({ goal_uuid: null, updated_at: updated.updated_at });
    await w.changes.record({ kind: 'project', uuid: project.uuid, change: 'updated', board: null, project: project.uuid, fields: ['goal'], snapshot: presentProject(updated) });
  }
  const attachments = await removeAttachmentsOf(w, 'goal', [uuid]);
  await w.db('plan_goals').where({ uuid }).delete();
  await w.changes.record({ kind: 'goal', uuid, change: 'deleted', board: null, snapshot: null });
  return { deleted: { object_kind: 'goal', uuid: goal.uuid, name: goal.name }, unlinked_projects: projects.length, attachments };
}

/** A period ends on or after it starts (400 invalid_filter_value naming period_end). */
function assertPeriod(start: string | null, end: string | null): void {
  if (start && end && end < start) throw invalidFilter('period_end', 'period_end is before period_start.');
}
