import type { Knex } from 'knex';
import type { BoardRow, ProjectRow, TaskRow } from '../../../db/tables.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { whereVisible } from '../frame/access.ts';
import type { PlanRead } from '../frame/context.ts';
import { resolveTaskRef } from '../tasks/keys.ts';
import { presentTasks } from '../tasks/repository.ts';
import type { PresentedTask } from '../tasks/repository.ts';
import { matching, whereTaskWordsMatch } from '../search/index.ts';
import type { Indexed } from '../search/index.ts';

/**
 * `GET /v1/plan/search/?q=`: tasks, boards and projects whose words match, among what the caller sees (a task is
 * visible with its board). Projects come first, then boards, then tasks, each newest change first; a `KEY-n`
 * also finds that task (by any key it has had). Archived objects, and the tasks of archived boards, only with
 * `include_archived`.
 */

export const SEARCH_TYPES = ['task', 'board', 'project'] as const;

export interface SearchFilters {
  text: string;
  types: Set<Indexed>;
  includeArchived: boolean;
}

export type Hit =
  | { type: 'project'; row: ProjectRow }
  | { type: 'board'; row: BoardRow }
  | { type: 'task'; row: TaskRow; task: PresentedTask; project: string | null };

type Base = () => Knex.QueryBuilder;

function projects(r: PlanRead, filters: SearchFilters): Base {
  return () => {
    const query = whereVisible(r.db('plan_projects as p'), r.db, r.actor, 'project', 'p').whereIn('p.uuid', matching(r.db, 'project', filters.text));
    if (!filters.includeArchived) query.whereNull('p.archived_at');
    return query;
  };
}

function boards(r: PlanRead, filters: SearchFilters): Base {
  return () => {
    const query = whereVisible(r.db('plan_boards as b'), r.db, r.actor, 'board', 'b').whereIn('b.uuid', matching(r.db, 'board', filters.text));
    if (!filters.includeArchived) query.whereNull('b.archived_at');
    return query;
  };
}

/** Matching tasks as their index entries (board, live, last change): the count and the order never read a task row. */
function tasks(r: PlanRead, filters: SearchFilters, keyed: string | null): Base {
  return () => {
    const visibleBoards = whereVisible(r.db('plan_boards as b').select('b.uuid'), r.db, r.actor, 'board', 'b');
    if (!filters.includeArchived) visibleBoards.whereNull('b.archived_at');
    const query = r.db('plan_task_search as s').whereIn('s.board_uuid', visibleBoards);
    // A KEY-n finds its task whatever its words.
    query.where((matches) => {
      whereTaskWordsMatch(matches, filters.text, r.db);
      if (keyed) matches.orWhere('s.task_uuid', keyed);
    });
    if (!filters.includeArchived) query.where('s.live', true);
    return query;
  };
}

const newestFirst = (alias: string) => [{ column: `${alias}.updated_at`, order: 'desc' as const }, { column: `${alias}.uuid`, order: 'asc' as const }];

export async function search(r: PlanRead, filters: SearchFilters, page: PageRequest): Promise<{ count: number; hits: Hit[] }> {
  const keyed = filters.types.has('task') ? await resolveTaskRef(r.db, r.actor.organization.uuid, filters.text) : null;
  const parts = [
    { type: 'project' as const, base: projects(r, filters), alias: 'p' },
    { type: 'board' as const, base: boards(r, filters), alias: 'b' },
    { type: 'task' as const, base: tasks(r, filters, keyed), alias: 's' },
  ].filter((part) => filters.types.has(part.type));

  let count = 0;
  let skip = page.offset;
  const hits: Hit[] = [];
  for (const part of parts) {
    const [{ n }] = await part.base().count({ n: '*' });
    const total = Number(n);
    count += total;
    const want = page.limit - hits.length;
    if (want <= 0 || skip >= total) {
      skip = Math.max(0, skip - total);
      continue;
    }
    const skip0 = skip;
    skip = 0;
    if (part.type === 'task') {
      const entries: { task_uuid: string }[] = await part.base().select('s.task_uuid').orderBy([{ column: 's.updated_at', order: 'desc' }, { column: 's.task_uuid', order: 'asc' }]).limit(want).offset(skip0);
      const found: TaskRow[] = entries.length ? await r.db('plan_tasks').whereIn('uuid', entries.map((e) => e.task_uuid)) : [];
      const byUuid = new Map(found.map((t) => [t.uuid, t]));
      const rows = entries.map((e) => byUuid.get(e.task_uuid)).filter((t): t is TaskRow => t !== undefined);
      const presented = await presentTasks(r.db, rows);
      const projectOf = new Map<string, string | null>();
      const boardUuids = [...new Set(rows.map((t) => t.board_uuid))];
      if (boardUuids.length) for (const b of await r.db('plan_boards').whereIn('uuid', boardUuids).select('uuid', 'project_uuid')) projectOf.set(b.uuid, b.project_uuid);
      rows.forEach((row, i) => hits.push({ type: 'task', row, task: presented[i], project: projectOf.get(row.board_uuid) ?? null }));
    } else {
      const rows = await part.base().select(`${part.alias}.*`).orderBy(newestFirst(part.alias)).limit(want).offset(skip0);
      for (const row of rows) hits.push({ type: part.type, row } as Hit);
    }
  }
  return { count, hits };
}
