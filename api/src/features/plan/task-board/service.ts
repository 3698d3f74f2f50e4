import { PLAN_STATE_CATEGORIES } from '../../../db/tables.ts';
import type { TaskRow } from '../../../db/tables.ts';
import { whereVisible } from '../frame/access.ts';
import type { PlanRead } from '../frame/context.ts';
import { fullName } from '../../users/repository.ts';
import { allMatching } from '../tasks/lists.ts';
import type { TaskFilters } from '../tasks/lists.ts';
import { labelsOf, presentTasks } from '../tasks/repository.ts';
import type { PresentedTask } from '../tasks/repository.ts';

/**
 * `GET /v1/plan/tasks/board/` (the DailyBot client's `tasks board`): the tasks a flat list's filters keep, as a
 * board of any slice of the workspace: columns by `group_by` (default category), optional swimlanes by
 * `sub_group_by`, and in each cell a window of its tasks (`tasks_per_group` from `offset`; `next_offset` pages
 * deeper, with `group` and `lane` naming the one cell to read). A task with several labels is in each of their
 * columns; a task without is under `none`, as are those without an owner, priority, project or milestone.
 */
export const GROUP_BY = ['category', 'owner', 'priority', 'project', 'board', 'milestone', 'state', 'label'] as const;
export type GroupBy = (typeof GROUP_BY)[number];
export const SUB_GROUP_BY = ['none', 'owner', 'priority', 'label', 'milestone', 'project', 'board', 'category'] as const;
export const TASKS_PER_GROUP = 50;
const NONE = 'none';
const PRIORITY_NAMES: Record<string, string> = { 1: 'Urgent', 2: 'High', 3: 'Medium', 4: 'Low', 5: 'No priority', [NONE]: 'No priority set' };
const CATEGORY_NAMES: Record<string, string> = { backlog: 'Backlog', todo: 'To do', in_progress: 'In progress', done: 'Done', canceled: 'Canceled' };

export interface BoardShape {
  groupBy: GroupBy;
  subGroupBy: GroupBy | null;
  /** Boards of these projects only (the grid's own filter, beside the list's). */
  projects?: string[];
  perGroup: number;
  offset: number;
  group?: string;
  lane?: string;
}

type Row = Pick<TaskRow, 'uuid' | 'board_uuid' | 'state_uuid' | 'owner_uuid' | 'priority' | 'milestone_uuid'>;

/** A column or a lane: its key, what people call it, and where it comes in the board. */
interface Group {
  key: string;
  name: string;
  order: number | string;
}

/** The keys of a task under one dimension, and what each key is called (looked up once for every task). */
async function dimension(r: PlanRead, by: GroupBy, rows: Row[]): Promise<{ keysOf: (row: Row) => string[]; groups: Map<string, Group> }> {
  const groups = new Map<string, Group>();
  const none = (name: string) => groups.set(NONE, { key: NONE, name, order: '\uffff' });
  const uuids = (pick: (row: Row) => string | null) => [...new Set(rows.map(pick).filter((v): v is string => v !== null))];
  if (by === 'priority') {
    for (const key of ['1', '2', '3', '4', '5', NONE]) groups.set(key, { key, name: PRIORITY_NAMES[key], order: key === NONE ? 6 : Number(key) });
    return { keysOf: (row) => [row.priority === null ? NONE : String(row.priority)], groups };
  }
  if (by === 'category' || by === 'state') {
    const states: { uuid: string; name: string; category: string; position: number; board_uuid: string }[] = await r.db('plan_states').whereIn('uuid', uuids((row) => row.state_uuid)).select('uuid', 'name', 'category', 'position', 'board_uuid');
    const byUuid = new Map(states.map((state) => [state.uuid, state]));
    if (by === 'category') {
      for (const [i, key] of PLAN_STATE_CATEGORIES.entries()) groups.set(key, { key, name: CATEGORY_NAMES[key], order: i });
      return { keysOf: (row) => [byUuid.get(row.state_uuid)?.category ?? 'todo'], groups };
    }
    for (const state of states) groups.set(state.uuid, { key: state.uuid, name: state.name, order: `${state.board_uuid}:${String(state.position).padStart(6, '0')}` });
    return { keysOf: (row) => [row.state_uuid], groups };
  }
  if (by === 'label') {
    const labels = await labelsOf(r.db, rows.map((row) => row.uuid));
    const named: { uuid: string; name: string }[] = await r.db('plan_labels').whereIn('uuid', [...new Set([...labels.values()].flat())]).select('uuid', 'name');
    for (const label of named) groups.set(label.uuid, { key: label.uuid, name: label.name, order: label.name.toLowerCase() });
    none('No label');
    return { keysOf: (row) => (labels.get(row.uuid)?.length ? labels.get(row.uuid)! : [NONE]), groups };
  }
  if (by === 'owner') {
    const people: { uuid: string; first_name: string; last_name: string; email: string }[] = await r.db('users').whereIn('uuid', uuids((row) => row.owner_uuid)).select('uuid', 'first_name', 'last_name', 'email');
    for (const person of people) groups.set(person.uuid, { key: person.uuid, name: fullName(person), order: fullName(person).toLowerCase() });
    none('Unowned');
    return { keysOf: (row) => [row.owner_uuid ?? NONE], groups };
  }
  if (by === 'milestone') {
    const milestones: { uuid: string; name: string; target_date: string | null }[] = await r.db('plan_milestones').whereIn('uuid', uuids((row) => row.milestone_uuid)).select('uuid', 'name', 'target_date');
    for (const m of milestones) groups.set(m.uuid, { key: m.uuid, name: m.name, order: `${m.target_date ?? '9999'}:${m.name.toLowerCase()}` });
    none('No milestone');
    return { keysOf: (row) => [row.milestone_uuid ?? NONE], groups };
  }
  // board, project: the boards the tasks are on, and their projects.
  const boards: { uuid: string; name: string; position: string | null; project_uuid: string | null }[] = await r.db('plan_boards').whereIn('uuid', uuids((row) => row.board_uuid)).select('uuid', 'name', 'position', 'project_uuid');
  const boardOf = new Map(boards.map((board) => [board.uuid, board]));
  if (by === 'board') {
    for (const board of boards) groups.set(board.uuid, { key: board.uuid, name: board.name, order: board.position ?? board.name });
    return { keysOf: (row) => [row.board_uuid], groups };
  }
  const projects: { uuid: string; name: string; position: string | null }[] = await r.db('plan_projects').whereIn('uuid', [...new Set(boards.map((b) => b.project_uuid).filter((p): p is string => p !== null))]).select('uuid', 'name', 'position');
  for (const project of projects) groups.set(project.uuid, { key: project.uuid, name: project.name, order: project.position ?? project.name });
  none('No project');
  return { keysOf: (row) => [boardOf.get(row.board_uuid)?.project_uuid ?? NONE], groups };
}

/** Fixed dimensions show every column; the others the columns that hold tasks. */
const showsEmpty = (by: GroupBy) => by === 'category' || by === 'priority';

const byOrder = (a: Group, b: Group) => (a.order === b.order ? (a.key < b.key ? -1 : 1) : a.order < b.order ? -1 : 1);

interface Cell {
  key: string;
  name: string;
  count: number;
  tasks: PresentedTask[];
  next_offset: number | null;
}

export async function taskBoard(r: PlanRead, filters: TaskFilters, shape: BoardShape) {
  let boards = filters.boards;
  if (shape.projects) {
    const inProjects: string[] = (await whereVisible(r.db('plan_boards as b'), r.db, r.actor, 'board', 'b').whereIn('b.project_uuid', shape.projects).select('b.uuid')).map((b: { uuid: string }) => b.uuid);
    boards = boards ? boards.filter((uuid) => inProjects.includes(uuid)) : inProjects;
  }
  const rows: Row[] = boards?.length === 0 ? [] : await allMatching(r, { ...filters, boards }, ['board_uuid', 'state_uuid', 'owner_uuid', 'priority', 'milestone_uuid']);
  const columns = await dimension(r, shape.groupBy, rows);
  const lanes = shape.subGroupBy ? await dimension(r, shape.subGroupBy, rows) : null;
  // Each cell's tasks in list order: column key → lane key (or '') → task uuids.
  const cells = new Map<string, Map<string, string[]>>();
  for (const row of rows) {
    for (const column of columns.keysOf(row)) {
      const inColumn = cells.get(column) ?? new Map<string, string[]>();
      cells.set(column, inColumn);
      for (const lane of lanes ? lanes.keysOf(row) : ['']) {
        const inCell = inColumn.get(lane) ?? [];
        inColumn.set(lane, inCell);
        inCell.push(row.uuid);
      }
    }
  }
  const shown = (dim: { groups: Map<string, Group> }, by: GroupBy, held: (key: string) => boolean, only?: string) =>
    [...dim.groups.values()].filter((g) => (showsEmpty(by) || held(g.key)) && (only === undefined || g.key === only)).sort(byOrder);
  const windows: { uuids: string[]; count: number }[] = [];
  const window = (uuids: string[]) => {
    windows.push({ uuids: uuids.slice(shape.offset, shape.offset + shape.perGroup), count: uuids.length });
    return windows.length - 1;
  };
  const layout = shown(columns, shape.groupBy, (key) => cells.has(key), shape.group).map((column) => {
    const inColumn = cells.get(column.key) ?? new Map<string, string[]>();
    const all = [...new Set([...inColumn.values()].flat())];
    const laneLayout = lanes ? shown(lanes, shape.subGroupBy!, (key) => inColumn.has(key), shape.lane).map((lane) => ({ lane, at: window(inColumn.get(lane.key) ?? []) })) : null;
    return { column, count: all.length, at: laneLayout ? null : window(all), laneLayout };
  });
  // The tasks the windows show, read and presented once.
  const wanted = [...new Set(windows.flatMap((w) => w.uuids))];
  const full: TaskRow[] = wanted.length ? await r.db('plan_tasks').whereIn('uuid', wanted) : [];
  const presented = new Map((await presentTasks(r.db, full)).map((task) => [task.uuid, task]));
  const cell = (group: Group, at: number): Cell => {
    const { uuids, count } = windows[at];
    const next = shape.offset + shape.perGroup;
    return { key: group.key, name: group.name, count, tasks: uuids.flatMap((uuid) => presented.get(uuid) ?? []), next_offset: next < count ? next : null };
  };
  const groups = layout.map(({ column, count, at, laneLayout }) =>
    laneLayout ? { key: column.key, name: column.name, count, lanes: laneLayout.map(({ lane, at: laneAt }) => cell(lane, laneAt)) } : cell(column, at!),
  );
  return { group_by: shape.groupBy, sub_group_by: shape.subGroupBy ?? NONE, total: rows.length, tasks_per_group: shape.perGroup, offset: shape.offset, groups };
}
