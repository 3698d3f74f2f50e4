import type { Knex } from 'knex';
import type { PlanRead } from './context.ts';
import { whereVisible } from './access.ts';

/** Which boards an organization-wide read (activity, pulse, timeline) covers: `board`, a project's, or all. */
export interface BoardScope {
  board?: string;
  project?: string;
  /** Archived boards too (activity shows what happened on them). */
  includeArchived?: boolean;
}

/**
 * The uuids of the boards the caller sees within the scope, as a subquery for `whereIn(…)`. A board or project the
 * caller does not see, or that does not exist, matches nothing (never a 404: it is a filter).
 */
export function scopedBoards(r: PlanRead, scope: BoardScope): Knex.QueryBuilder {
  const boards = whereVisible(r.db('plan_boards as b').select('b.uuid'), r.db, r.actor, 'board', 'b');
  if (!scope.includeArchived) boards.whereNull('b.archived_at');
  if (scope.board) boards.where('b.uuid', scope.board);
  if (scope.project) boards.where('b.project_uuid', scope.project).whereIn('b.project_uuid', visibleProjects(r));
  return boards;
}

/** The projects the caller sees, as a subquery. */
export function visibleProjects(r: PlanRead): Knex.QueryBuilder {
  return whereVisible(r.db('plan_projects as p').select('p.uuid'), r.db, r.actor, 'project', 'p');
}
