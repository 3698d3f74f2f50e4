import { can } from '../../../auth/policy.ts';
import type { PlanChangeRow } from '../../../db/tables.ts';
import { addDays } from '../../../lib/dates.ts';
import type { PageRequest } from '../../../lib/page.ts';
import type { PlanRead } from '../frame/context.ts';
import { pageOf } from '../frame/lists.ts';
import { scopedBoards, visibleProjects } from '../frame/scope.ts';
import type { BoardScope } from '../frame/scope.ts';
import { actorsOf } from '../task-history/service.ts';
import type { HistoryRow } from '../task-history/service.ts';

/**
 * The organization's Plan activity, newest first, from the change log: what changed on the boards the caller
 * sees (archived ones included) and on the organization's projects and goals they see. Saved views are left out
 * (a personal one is its owner's alone). A board's own deletion is logged outside any board stream; only admins
 * see it here.
 */

export interface ActivityFilters extends BoardScope {
  actor?: string;
  kinds?: string[];
  from?: string;
  to?: string;
}

export async function organizationActivity(r: PlanRead, filters: ActivityFilters, page: PageRequest): Promise<{ count: number; rows: HistoryRow[] }> {
  const base = () => {
    const query = r.db('plan_changes as c').where('c.organization_uuid', r.actor.organization.uuid).whereNot('c.object_kind', 'view');
    const boards = scopedBoards(r, { ...filters, includeArchived: true });
    if (filters.board || filters.project) {
      query.where((q) => {
        q.whereIn('c.board_uuid', boards);
        // A project's own changes (and its milestones', updates', members') when the scope is that project.
        if (filters.project && !filters.board) q.orWhere((p) => p.whereNull('c.board_uuid').where('c.project_uuid', filters.project!).whereIn('c.project_uuid', visibleProjects(r)));
      });
    } else {
      const admin = can(r.actor, 'plan.manage_all');
      query.where((q) => {
        q.whereIn('c.board_uuid', boards).orWhere((org) => {
          org.whereNull('c.board_uuid').where((p) => p.whereNull('c.project_uuid').orWhereIn('c.project_uuid', visibleProjects(r)));
          if (!admin) org.whereNot('c.object_kind', 'board');
        });
      });
    }
    if (filters.actor) query.where('c.actor_uuid', filters.actor);
    if (filters.kinds) query.whereIn('c.object_kind', filters.kinds);
    if (filters.from) query.where('c.created_at', '>=', `${filters.from}T00:00:00.000Z`);
    if (filters.to) query.where('c.created_at', '<', `${addDays(filters.to, 1)}T00:00:00.000Z`);
    return query;
  };
  const { count, rows } = await pageOf<PlanChangeRow>(base, page, (query) => query.select('c.*').orderBy('c.id', 'desc'));
  const actors = await actorsOf(r, rows);
  return { count, rows: rows.map((row) => ({ row, actor: row.actor_uuid ? (actors.get(row.actor_uuid) ?? null) : null })) };
}
