import type { TaskRow } from '../../../db/tables.ts';
import type { PageRequest } from '../../../lib/page.ts';
import type { PlanRead } from '../frame/context.ts';
import { pageOf } from '../frame/lists.ts';
import { scopedBoards } from '../frame/scope.ts';
import type { BoardScope } from '../frame/scope.ts';
import { presentTasks } from '../tasks/repository.ts';
import type { PresentedTask } from '../tasks/repository.ts';

/**
 * The timeline: live tasks with a start or due date, on the boards the caller sees, as spans of days
 * (`starts_on` = start date, else due date; `ends_on` = due date, else start date) that overlap the requested
 * days, earliest first.
 */

export interface TimelineFilters extends BoardScope {
  from?: string;
  to?: string;
  owner?: string;
}

export async function timeline(r: PlanRead, filters: TimelineFilters, page: PageRequest): Promise<{ count: number; tasks: PresentedTask[] }> {
  const starts = 'coalesce(t.start_date, t.due_date)';
  const ends = 'coalesce(t.due_date, t.start_date)';
  const base = () => {
    const query = r.db('plan_tasks as t').whereIn('t.board_uuid', scopedBoards(r, filters)).whereNull('t.archived_at').where((q) => q.whereNotNull('t.start_date').orWhereNotNull('t.due_date'));
    if (filters.from) query.whereRaw(`${ends} >= ?`, [filters.from]);
    if (filters.to) query.whereRaw(`${starts} <= ?`, [filters.to]);
    if (filters.owner) query.where('t.owner_uuid', filters.owner);
    return query;
  };
  const { count, rows } = await pageOf<TaskRow>(base, page, (query) => query.select('t.*').orderByRaw(`${starts} asc, ${ends} asc, t.uuid asc`));
  return { count, tasks: await presentTasks(r.db, rows) };
}
