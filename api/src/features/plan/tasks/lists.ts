import type { Knex } from 'knex';
import type { BoardRow, TaskRow } from '../../../db/tables.ts';
import { addDays } from '../../../lib/dates.ts';
import { invalidFilter } from '../../../lib/errors.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { visibleBoard, whereVisible } from '../frame/access.ts';
import type { PlanRead } from '../frame/context.ts';
import type { Ordering } from '../frame/lists.ts';
import { matchingTasksAt } from '../search/index.ts';
import { findTask } from './access.ts';
import { parseTaskKey, resolveTaskRef } from './keys.ts';
import { participantsOf } from './people.ts';
import { relationsOf } from './relations.ts';
import { presentTasks } from './repository.ts';

/**
 * Task lists: a board's tasks, every task the caller sees, and the caller's own (me/tasks/), all with the same
 * filters. Filters naming something the caller does not see match nothing. The indexes behind them are in
 * migrations 0603 and 0620; the search words in plan_task_search (search/).
 */

/** What a list may be sorted by (`sort` or `ordering`, `-` for descending). `rank` is board order: board, column, place. */
export const TASK_SORTS: Record<string, string> = {
  rank: 'rank', created_at: 'created_at', updated_at: 'updated_at', due_date: 'due_date', start_date: 'start_date', completed_at: 'completed_at', priority: 'priority', key: 'number', title: 'title',
};
const NULLABLE_SORTS = new Set(['due_date', 'start_date', 'completed_at', 'priority']);
export const INCLUDE_TOKENS = ['archived', 'participants', 'relations', 'children'] as const;
export type IncludeToken = (typeof INCLUDE_TOKENS)[number];
export const ME_ROLES = ['owner', 'participant', 'creator', 'any'] as const;
/** The DailyBot client's `scope` of me/tasks/, and the role each names (`involved`: owned, taking part in or created). */
export const ME_SCOPES: Record<string, (typeof ME_ROLES)[number]> = { owned: 'owner', participating: 'participant', involved: 'any' };

export interface TaskFilters {
  boards?: string[];
  states?: string[];
  labels?: string[];
  /** Owner uuids, and whether unowned tasks match too. */
  owners?: { users: string[]; unowned: boolean };
  priorities?: number[];
  parent?: string;
  milestone?: string;
  created?: { from?: string; to?: string };
  due?: { from?: string; to?: string };
  search?: string;
  /** Only open tasks: those whose state is not of the done or canceled category. */
  open?: boolean;
  include: Set<IncludeToken>;
  sort: Ordering;
}

export type ListScope = { board: string } | { all: true } | { me: (typeof ME_ROLES)[number] };

/** One column of one board. */
interface Column {
  board: string;
  state: string;
}

/** How many filtered tasks one column of a board holds. */
interface ColumnCount {
  board_uuid: string;
  state_uuid: string;
  n: number | string;
}

/**
 * The filtered tasks, before paging and order (`base`, narrowed to one column when given one); null when a filter
 * names nothing the caller sees. `narrowCounts`, on a board searched with no other filter, or filtered by labels
 * and columns only: the tasks per column from a narrow index that keeps each task's column and liveness beside
 * its words (the search index) or its label (plan_task_labels, migration 0900), never reading a task row.
 */
interface Filtered {
  base: (column?: Column) => Knex.QueryBuilder;
  narrowCounts?: () => Promise<ColumnCount[]>;
}

/** Whether no filter but those named is set. */
const onlyFilters = (f: TaskFilters, ...allowed: ('states' | 'labels' | 'search')[]) =>
  (['states', 'labels', 'owners', 'priorities', 'parent', 'milestone', 'search'] as const).every((name) => f[name] === undefined || (allowed as string[]).includes(name)) &&
  [f.created?.from, f.created?.to, f.due?.from, f.due?.to].every((v) => v === undefined) &&
  !f.open;

/** Whether an owner filter names one person (not unowned tasks too): a list of that person's tasks. */
const onePerson = (f: TaskFilters) => f.owners !== undefined && f.owners.users.length === 1 && !f.owners.unowned;

async function filtered(r: PlanRead, scope: ListScope, filters: TaskFilters): Promise<Filtered | null> {
  const db = r.db;
  const parent = filters.parent === undefined ? undefined : await findTask(db, r.actor.organization.uuid, filters.parent);
  if (parent === null) return null;
  let keyed: string | null = null;
  if (filters.search && parseTaskKey(filters.search.trim())) keyed = await resolveTaskRef(db, r.actor.organization.uuid, filters.search.trim());
  const archived = filters.include.has('archived');
  const search = filters.search;
  const board = 'board' in scope ? scope.board : undefined;
  const base = (column?: Column) => {
    const query = db('plan_tasks as t');
    if ('board' in scope) {
      query.where('t.board_uuid', scope.board);
    } else {
      // Every board the caller sees (live ones only, unless archived tasks are asked for too).
      const boards = whereVisible(db('plan_boards as b').select('b.uuid'), db, r.actor, 'board', 'b');
      if (!archived) boards.whereNull('b.archived_at');
      if (filters.boards) boards.whereIn('b.uuid', filters.boards);
      query.where('t.organization_uuid', r.actor.organization.uuid).whereIn('t.board_uuid', boards);
    }
    if ('me' in scope) {
      const me = r.actor.user.uuid;
      const participating = db('plan_task_participants').select('task_uuid').where('user_uuid', me);
      if (scope.me === 'owner') query.where('t.owner_uuid', me);
      else if (scope.me === 'participant') query.whereIn('t.uuid', participating);
      else if (scope.me === 'creator') query.where('t.created_by_uuid', me);
      else query.where((q) => q.where('t.owner_uuid', me).orWhere('t.created_by_uuid', me).orWhereIn('t.uuid', participating));
    }
    if (!archived) query.whereNull('t.archived_at');
    if (filters.states) query.whereIn('t.state_uuid', filters.states);
    if (filters.labels && onePerson(filters)) {
      // One person's tasks are few (400 on the benchmark's board, against 2,500 live tasks of a label): each one's
      // labels are probed by primary key instead (the count, over 50 owners and 20 labels: 2.5-3.0 -> 1.5-2.0 ms).
      query.whereExists(db('plan_task_labels as l').select('l.task_uuid').where('l.task_uuid', db.ref('t.uuid')).whereIn('l.label_uuid', filters.labels));
    } else if (filters.labels) {
      // Only the label rows at the place listed (migration 0900 keeps each row's column and liveness): a label on
      // 3,100 tasks filtered by a column of 4,000 reads the 412 in both, not the 3,100.
      const labelled = db('plan_task_labels as l').select('l.task_uuid').whereIn('l.label_uuid', filters.labels);
      if (!archived) labelled.where('l.live', true);
      if (column) labelled.where('l.state_uuid', column.state);
      else if (filters.states) labelled.whereIn('l.state_uuid', filters.states);
      query.whereIn('t.uuid', labelled);
    }
    if (filters.owners) {
      const { users, unowned } = filters.owners;
      query.where((q) => {
        if (users.length) q.whereIn('t.owner_uuid', users);
        if (unowned) q.orWhereNull('t.owner_uuid');
      });
    }
    if (filters.priorities) query.whereIn('t.priority', filters.priorities);
    if (filters.open) {
      query.whereIn('t.state_uuid', db('plan_states').select('uuid').where('organization_uuid', r.actor.organization.uuid).whereNotIn('category', ['done', 'canceled']));
    }
    if (parent) query.where('t.parent_task_uuid', parent.uuid);
    if (filters.milestone) query.where('t.milestone_uuid', filters.milestone);
    if (filters.created?.from) query.where('t.created_at', '>=', `${filters.created.from}T00:00:00.000Z`);
    if (filters.created?.to) query.where('t.created_at', '<', `${addDays(filters.created.to, 1)}T00:00:00.000Z`);
    if (filters.due?.from) query.where('t.due_date', '>=', filters.due.from);
    if (filters.due?.to) query.where('t.due_date', '<=', filters.due.to);
    if (search) {
      // Only the index entries at the place listed: a word found in 7,000 tasks of the organization reads the
      // task rows of the column it is asked for, not those 7,000.
      const matching = matchingTasksAt(db, search, { board: column?.board ?? board, state: column?.state, live: !archived });
      if (keyed) query.where((q) => q.whereIn('t.uuid', matching).orWhere('t.uuid', keyed));
      else query.whereIn('t.uuid', matching);
    }
    return query;
  };
  if (board === undefined || keyed) return { base };
  if (search && onlyFilters(filters, 'search')) {
    const narrowCounts = async (): Promise<ColumnCount[]> =>
      matchingTasksAt(db, search, { board, live: !archived }).clearSelect().select('s.board_uuid', 's.state_uuid').count({ n: '*' }).groupBy('s.board_uuid', 's.state_uuid');
    return { base, narrowCounts };
  }
  const labels = filters.labels;
  if (labels && onlyFilters(filters, 'states', 'labels')) {
    const narrowCounts = async (): Promise<ColumnCount[]> => {
      // The board's columns bound the count as `t.board_uuid` bounds the list; a task on two of the labels is one task.
      const query = db('plan_task_labels as l').select('l.state_uuid').whereIn('l.label_uuid', labels).whereIn('l.state_uuid', db('plan_states').select('uuid').where('board_uuid', board));
      if (!archived) query.where('l.live', true);
      if (filters.states) query.whereIn('l.state_uuid', filters.states);
      const rows: { state_uuid: string; n: number | string }[] = await (labels.length > 1 ? query.countDistinct({ n: 'l.task_uuid' }) : query.count({ n: '*' })).groupBy('l.state_uuid');
      return rows.map((row) => ({ board_uuid: board, ...row }));
    };
    return { base, narrowCounts };
  }
  return { base };
}

/** Orders a page by a column of the task (empty values last either way), then uuid, so pages never overlap. */
function ordered(query: Knex.QueryBuilder, sort: Ordering): Knex.QueryBuilder {
  const column = `t.${sort.column}`;
  if (NULLABLE_SORTS.has(sort.column)) query.orderByRaw('case when ?? is null then 1 else 0 end', [column]);
  return query.orderBy([{ column, order: sort.order }, { column: 't.uuid', order: sort.order }]);
}

/**
 * A page in board order (board, column, rank), read column by column: one grouped count says how many matching
 * tasks each column holds, then only the columns the page reaches are read, each along the (board, state, rank)
 * index. Ordering the whole filtered set by the columns' positions would sort every matching task of the board.
 */
async function inBoardOrder(r: PlanRead, { base, narrowCounts }: Filtered, sort: Ordering, page: PageRequest): Promise<{ count: number; rows: TaskRow[] }> {
  const groups: ColumnCount[] = await (narrowCounts ? narrowCounts() : base().select('t.board_uuid', 't.state_uuid').count({ n: '*' }).groupBy('t.board_uuid', 't.state_uuid'));
  const count = groups.reduce((sum, g) => sum + Number(g.n), 0);
  if (count === 0 || page.offset >= count) return { count, rows: [] };
  const states: { uuid: string; position: number; archived_at: string | null }[] = await r.db('plan_states').whereIn('uuid', groups.map((g) => g.state_uuid)).select('uuid', 'position', 'archived_at');
  const place = new Map(states.map((state) => [state.uuid, state]));
  // Live columns by position, then archived ones (holding archived tasks), by uuid within a board.
  const key = (g: { board_uuid: string; state_uuid: string }) => {
    const state = place.get(g.state_uuid);
    return [g.board_uuid, state?.archived_at ? 1 : 0, Number(state?.position ?? 0), g.state_uuid] as const;
  };
  groups.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  });
  if (sort.order === 'desc') groups.reverse();
  const rows: TaskRow[] = [];
  let skip = page.offset;
  for (const group of groups) {
    const n = Number(group.n);
    if (skip >= n) {
      skip -= n;
      continue;
    }
    const column: TaskRow[] = await base({ board: group.board_uuid, state: group.state_uuid })
      .where({ 't.board_uuid': group.board_uuid, 't.state_uuid': group.state_uuid })
      .select('t.*')
      .orderBy([{ column: 't.rank', order: sort.order }, { column: 't.uuid', order: sort.order }])
      .limit(page.limit - rows.length)
      .offset(skip);
    rows.push(...column);
    skip = 0;
    if (rows.length >= page.limit) break;
  }
  return { count, rows };
}

export async function listTasks(r: PlanRead, scope: ListScope, filters: TaskFilters, page: PageRequest) {
  if ('board' in scope) await visibleBoard<BoardRow>(r.db, r.actor, scope.board);
  const list = await filtered(r, scope, filters);
  if (!list) return { count: 0, results: [] };
  const { base, narrowCounts } = list;
  let count: number;
  let rows: TaskRow[];
  if (filters.sort.column === 'rank') {
    ({ count, rows } = await inBoardOrder(r, list, filters.sort, page));
  } else {
    const totals: { n: number | string }[] = await (narrowCounts ? narrowCounts() : base().count({ n: '*' }));
    count = totals.reduce((sum, g) => sum + Number(g.n), 0);
    rows = count === 0 ? [] : await ordered(base().select('t.*'), filters.sort).limit(page.limit).offset(page.offset);
  }
  return { count, results: await withIncludes(r, rows, filters.include) };
}

/**
 * Every task the organization-wide list holds with these filters, in `sort` order (rank: board by board), unpaged:
 * the grouped board (task-board/) arranges them into cells. Only `columns` of each row are read.
 */
export async function allMatching<C extends keyof TaskRow>(r: PlanRead, filters: TaskFilters, columns: C[]): Promise<Pick<TaskRow, C | 'uuid'>[]> {
  const list = await filtered(r, { all: true }, filters);
  if (!list) return [];
  const query = list.base().select([...new Set(['uuid', ...columns])].map((column) => `t.${column}`));
  if (filters.sort.column === 'rank') query.orderBy([{ column: 't.board_uuid' }, { column: 't.rank', order: filters.sort.order }, { column: 't.uuid' }]);
  else ordered(query, filters.sort);
  return query;
}

/** Tasks as presented, with what `include` asks for: participants (user uuids), relations, children (live sub-task uuids). */
export async function withIncludes(r: PlanRead, rows: TaskRow[], include: Set<IncludeToken>) {
  const presented = await presentTasks(r.db, rows);
  const uuids = rows.map((t) => t.uuid);
  const participants = include.has('participants') ? await participantsOf(r.db, uuids) : null;
  const relations = include.has('relations') ? await relationsOf(r.db, r.actor, uuids) : null;
  const children = include.has('children') ? await childrenOf(r, uuids) : null;
  return presented.map((task) => ({
    ...task,
    ...(participants ? { participants: participants.get(task.uuid) ?? [] } : {}),
    ...(relations ? { relations: relations.get(task.uuid) ?? [] } : {}),
    ...(children ? { children: children.get(task.uuid) ?? [] } : {}),
  }));
}

async function childrenOf(r: PlanRead, uuids: string[]): Promise<Map<string, string[]>> {
  const byParent = new Map<string, string[]>(uuids.map((uuid) => [uuid, []]));
  if (uuids.length === 0) return byParent;
  const rows = await r.db('plan_tasks').whereIn('parent_task_uuid', uuids).whereNull('archived_at').orderBy([{ column: 'rank' }, { column: 'uuid' }]).select('uuid', 'parent_task_uuid');
  for (const row of rows) byParent.get(row.parent_task_uuid!)!.push(row.uuid);
  return byParent;
}

/**
 * The `include` tokens of the task lists, and those of `also` (a single task's GET takes more: its first pages of
 * comments, attachments and activity); any other answers 400 invalid_filter_value naming them all.
 */
export function includeWith<T extends string>(values: string[], also: readonly T[]): { tokens: Set<IncludeToken>; also: Set<T> } {
  const known: readonly string[] = [...INCLUDE_TOKENS, ...also];
  const unknown = values.find((v) => !known.includes(v));
  if (unknown !== undefined) throw invalidFilter('include', `include takes ${known.join(', ')}; not ${unknown.slice(0, 40)}.`);
  return {
    tokens: new Set(values.filter((v): v is IncludeToken => (INCLUDE_TOKENS as readonly string[]).includes(v))),
    also: new Set(values.filter((v): v is T => (also as readonly string[]).includes(v))),
  };
}
