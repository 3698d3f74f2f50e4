import { notFound } from '../../../lib/errors.ts';
import type { Executor } from '../../../db/connection.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { visibleProject, whereVisible } from '../frame/access.ts';
import { writableProject } from '../frame/locks.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { pageOf } from '../frame/lists.ts';
import { presentMilestone } from './presenter.ts';
import type { CreateMilestoneInput, UpdateMilestoneInput } from './schema.ts';
import type { MilestoneRow } from '../../../db/tables.ts';

/** A project's milestones: everyone who sees the project sees them; its managers manage them. */
export async function listMilestones(r: PlanRead, projectUuid: string, page: PageRequest): Promise<{ count: number; rows: MilestoneRow[] }> {
  await visibleProject(r.db, r.actor, projectUuid);
  // Dated milestones in date order, then undated ones in creation order.
  return pageOf(() => r.db('plan_milestones').where({ project_uuid: projectUuid }), page, (query) =>
    query.orderByRaw('case when target_date is null then 1 else 0 end').orderBy([{ column: 'target_date' }, { column: 'uuid' }]),
  );
}

/**
 * Every milestone of the projects the caller sees, across the organization (the DailyBot client's `milestones/`),
 * in the same order; retired ones only with `include_archived`.
 */
export async function listAllMilestones(r: PlanRead, filters: { includeArchived: boolean; project?: string }, page: PageRequest): Promise<{ count: number; rows: MilestoneRow[] }> {
  const base = () => {
    const query = r.db('plan_milestones as m').whereIn('m.project_uuid', whereVisible(r.db('plan_projects as p'), r.db, r.actor, 'project', 'p').select('p.uuid'));
    if (!filters.includeArchived) query.whereNull('m.archived_at');
    if (filters.project) query.andWhere('m.project_uuid', filters.project);
    return query;
  };
  return pageOf(base, page, (query) =>
    query.select('m.*').orderByRaw('case when m.target_date is null then 1 else 0 end').orderBy([{ column: 'm.target_date' }, { column: 'm.uuid' }]),
  );
}

async function milestoneOf(db: Executor, projectUuid: string, uuid: string): Promise<MilestoneRow> {
  const row: MilestoneRow | undefined = await db('plan_milestones').where({ uuid }).first();
  if (!row || row.project_uuid !== projectUuid) throw notFound();
  return row;
}

export async function getMilestone(r: PlanRead, projectUuid: string, uuid: string): Promise<MilestoneRow> {
  await visibleProject(r.db, r.actor, projectUuid);
  return milestoneOf(r.db, projectUuid, uuid);
}

async function recordMilestone(w: PlanWrite, row: MilestoneRow, change: 'created' | 'updated', fields: string[] = []): Promise<MilestoneRow> {
  await w.changes.record({ kind: 'milestone', uuid: row.uuid, change, board: null, project: row.project_uuid, fields, snapshot: presentMilestone(row) });
  return row;
}

export async function createMilestone(w: PlanWrite, projectUuid: string, input: CreateMilestoneInput): Promise<MilestoneRow> {
  const { row: project } = await writableProject<{ uuid: string; visibility: string }>(w, projectUuid);
  const row: MilestoneRow = {
    uuid: uuidv7(w.now.getTime()),
    organization_uuid: w.actor.organization.uuid,
    project_uuid: project.uuid,
    name: input.name.trim(),
    description: input.description ?? '',
    target_date: input.target_date ?? null,
    created_at: w.now.toISOString(),
    updated_at: w.now.toISOString(),
  };
  await w.db('plan_milestones').insert(row);
  return recordMilestone(w, row, 'created');
}

export async function updateMilestone(w: PlanWrite, projectUuid: string, uuid: string, input: UpdateMilestoneInput): Promise<MilestoneRow> {
  await writableProject(w, projectUuid);
  const milestone = await milestoneOf(w.db, projectUuid, uuid);
  const changes: Partial<MilestoneRow> = {};
  if (input.name !== undefined && input.name.trim() !== milestone.name) changes.name = input.name.trim();
  if (input.description !== undefined && input.description !== milestone.description) changes.description = input.description;
  if (input.target_date !== undefined && input.target_date !== milestone.target_date) changes.target_date = input.target_date;
  if (Object.keys(changes).length === 0) return milestone;
  const updated = { ...milestone, ...changes, updated_at: w.now.toISOString() };
  await w.db('plan_milestones').where({ uuid }).update({ ...changes, updated_at: updated.updated_at });
  return recordMilestone(w, updated, 'updated', Object.keys(changes));
}

/** Deletes the milestone; its tasks keep going without one. */
type MilestoneState = 'completed' | 'reopened' | 'restored' | 'archived';

/**
 * Marks a milestone done (`completed_at`), not done, retired (`archived_at`) or back: its project's managers. Its
 * tasks are left as they are (completing a milestone closes none of them). Doing what is already so answers the
 * milestone unchanged.
 */
export async function setMilestoneState(w: PlanWrite, projectUuid: string, uuid: string, to: MilestoneState): Promise<MilestoneRow> {
  await writableProject(w, projectUuid);
  const milestone = await milestoneOf(w.db, projectUuid, uuid);
  const now = w.now.toISOString();
  const changes: Partial<MilestoneRow> =
    to === 'completed' ? { completed_at: milestone.completed_at ?? now }
    : to === 'reopened' ? { completed_at: null }
    : to === 'archived' ? { archived_at: milestone.archived_at ?? now }
    : { archived_at: null };
  const field = Object.keys(changes)[0] as 'completed_at' | 'archived_at';
  if ((milestone[field] ?? null) === changes[field]) return milestone;
  const updated = { ...milestone, ...changes, updated_at: now };
  await w.db('plan_milestones').where({ uuid }).update({ ...changes, updated_at: now });
  return recordMilestone(w, updated, 'updated', [field]);
}
