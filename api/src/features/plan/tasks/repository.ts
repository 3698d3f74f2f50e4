import { generateNKeysBetween } from 'fractional-indexing';
import { ApiError } from '../../../lib/errors.ts';
import type { Executor } from '../../../db/connection.ts';
import { lockBoard, lockBoards } from '../frame/locks.ts';
import type { PlanWrite } from '../frame/context.ts';
import { notifyTaskChanges } from './notices.ts';
import { presentTask } from './presenter.ts';
import { placeTasks } from '../search/index.ts';
import type { TaskRow } from '../../../db/tables.ts';

/** The spec's ceiling of live tasks in one column (422 column_too_large). */
export const COLUMN_LIMIT = 5000;

export async function liveTasksInState(db: Executor, stateUuid: string): Promise<number> {
  const [{ count }] = await db('plan_tasks').where({ state_uuid: stateUuid }).whereNull('archived_at').count({ count: '*' });
  return Number(count);
}

/** Tasks (live or archived) carrying the label. */
export async function tasksWithLabel(db: Executor, labelUuid: string): Promise<number> {
  const [{ count }] = await db('plan_task_labels').where({ label_uuid: labelUuid }).count({ count: '*' });
  return Number(count);
}

/** Label uuids per task, in batches (a whereIn list stays well below the engines' parameter limits). */
export async function labelsOf(db: Executor, taskUuids: string[]): Promise<Map<string, string[]>> {
  const labels = new Map<string, string[]>(taskUuids.map((uuid) => [uuid, []]));
  for (let i = 0; i < taskUuids.length; i += 500) {
    const rows: { task_uuid: string; label_uuid: string }[] = await db('plan_task_labels').whereIn('task_uuid', taskUuids.slice(i, i + 500)).select('task_uuid', 'label_uuid');
    for (const row of rows) labels.get(row.task_uuid)!.push(row.label_uuid);
  }
  for (const list of labels.values()) list.sort();
  return labels;
}

/** The current key of each board named. */
export async function boardKeys(db: Executor, boardUuids: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set(boardUuids)];
  if (wanted.length === 0) return new Map();
  const rows: { uuid: string; key: string }[] = wanted.length === 1 ? await db('plan_boards').where({ uuid: wanted[0] }).select('uuid', 'key') : await db('plan_boards').whereIn('uuid', wanted).select('uuid', 'key');
  return new Map(rows.map((row) => [row.uuid, row.key]));
}

export type PresentedTask = ReturnType<typeof presentTask>;

/** Tasks as the API presents them (their keys and labels read in one statement each). */
export async function presentTasks(db: Executor, tasks: TaskRow[]): Promise<PresentedTask[]> {
  if (tasks.length === 0) return [];
  const keys = await boardKeys(db, tasks.map((t) => t.board_uuid));
  const labels = await labelsOf(db, tasks.map((t) => t.uuid));
  return tasks.map((task) => presentTask(task, keys.get(task.board_uuid)!, labels.get(task.uuid) ?? []));
}

export type TaskChangeKind = 'created' | 'updated' | 'moved' | 'archived' | 'restored';

/**
 * Every change of a task goes through here: one change-log row per task, with the task as the API presents it
 * after the change (the delta feed replays these snapshots), numbered on its board's stream; kind `task` makes
 * it a `tasks.<change>` organization event too. `event: false` records without an event (a board move's
 * second row). The people a change concerns are notified here too (notices.ts).
 */
export async function recordTaskChanges(
  w: PlanWrite,
  tasks: TaskRow[],
  change: TaskChangeKind,
  fields: string[],
  options: { event?: boolean; /** The tasks as they were, where a notice needs it (the owner a task was taken from). */ before?: TaskRow[] } = {},
): Promise<PresentedTask[]> {
  const presented = await presentTasks(w.db, tasks);
  await placeTasks(w.db, tasks);
  for (const [i, task] of tasks.entries()) {
    await w.changes.record({ kind: 'task', uuid: task.uuid, change, board: task.board_uuid, fields, snapshot: presented[i], event: options.event });
  }
  await notifyTaskChanges(w, tasks, change, fields, options.before);
  return presented;
}

/**
 * Moves the live tasks of one column into another of the same board (a state archived with migrate_to): after
 * the target column's last task, in their old order, each with its version bumped and its completion set or
 * cleared by the target's category. 422 `column_too_large` when the target would pass 5,000 live tasks.
 */
export async function moveLiveTasks(w: PlanWrite, from: { uuid: string }, to: { uuid: string; board_uuid: string; category: string }): Promise<number> {
  // The board's lock first: the target column's end read below is then the end every other placement sees.
  await lockBoard(w.db, to.board_uuid);
  const tasks: TaskRow[] = await w.db('plan_tasks').where({ state_uuid: from.uuid }).whereNull('archived_at').orderBy([{ column: 'rank' }, { column: 'uuid' }]);
  if (tasks.length === 0) return 0;
  const present = await liveTasksInState(w.db, to.uuid);
  if (present + tasks.length > COLUMN_LIMIT) {
    throw new ApiError(422, 'column_too_large', `The target column would hold more than ${COLUMN_LIMIT} tasks.`, { extra: { limit: COLUMN_LIMIT, current: present, moving: tasks.length } });
  }
  const tail = await w.db('plan_tasks').where({ state_uuid: to.uuid }).max({ rank: 'rank' }).first();
  const ranks = generateNKeysBetween(tail?.rank ?? null, null, tasks.length);
  const done = to.category === 'done';
  const moved = tasks.map((task, i) => ({
    ...task,
    state_uuid: to.uuid,
    rank: ranks[i],
    version: Number(task.version) + 1,
    completed_at: done ? (task.completed_at ?? w.now.toISOString()) : null,
    updated_at: w.now.toISOString(),
  }));
  for (const task of moved) {
    await w.db('plan_tasks').where({ uuid: task.uuid }).update({ state_uuid: task.state_uuid, rank: task.rank, version: task.version, completed_at: task.completed_at, updated_at: task.updated_at });
  }
  await recordTaskChanges(w, moved, 'moved', ['state', 'rank']);
  return moved.length;
}

/** Tasks lose a deleted milestone (one change each). */
export async function detachMilestones(w: PlanWrite, milestoneUuids: string[]): Promise<number> {
  if (milestoneUuids.length === 0) return 0;
  const found: TaskRow[] = await w.db('plan_tasks').whereIn('milestone_uuid', milestoneUuids).select('board_uuid');
  // The lock order: their boards (by uuid), then the tasks, read again under the boards' locks.
  await lockBoards(w.db, found.map((t) => t.board_uuid));
  const tasks: TaskRow[] = await w.db('plan_tasks').whereIn('milestone_uuid', milestoneUuids);
  const detached = tasks.map((task) => ({ ...task, milestone_uuid: null, version: Number(task.version) + 1, updated_at: w.now.toISOString() }));
  for (const task of detached) {
    await w.db('plan_tasks').where({ uuid: task.uuid }).update({ milestone_uuid: null, version: task.version, updated_at: task.updated_at });
  }
  await recordTaskChanges(w, detached, 'updated', ['milestone']);
  return detached.length;
}
