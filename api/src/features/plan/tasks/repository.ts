import { generateNKeysBetween } from 'fractional-indexing';
import { ApiError } from '../../../lib/errors.ts';
import type { Executor } from '../../../db/connection.ts';
import type { PlanWrite } from '../frame/context.ts';
import { presentTask } from './presenter.ts';
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
async function labelsOf(db: Executor, taskUuids: string[]): Promise<Map<string, string[]>> {
  const labels = new Map<string, string[]>(taskUuids.map((uuid) => [uuid, []]));
  for (let i = 0; i < taskUuids.length; i += 500) {
    const rows: { task_uuid: string; label_uuid: string }[] = await db('plan_task_labels').whereIn('task_uuid', taskUuids.slice(i, i + 500)).select('task_uuid', 'label_uuid');
    for (const row of rows) labels.get(row.task_uuid)!.push(row.label_uuid);
  }
  for (const list of labels.values()) list.sort();
  return labels;
}

/** Writes one change per task, each with the task as presented after the change. */
async function recordTasks(w: PlanWrite, tasks: TaskRow[], change: 'updated' | 'moved', fields: string[]): Promise<void> {
  if (tasks.length === 0) return;
  const keys = new Map<string, string>();
  for (const boardUuid of new Set(tasks.map((t) => t.board_uuid))) {
    keys.set(boardUuid, (await w.db('plan_boards').where({ uuid: boardUuid }).first('key'))!.key);
  }
  const labels = await labelsOf(w.db, tasks.map((t) => t.uuid));
  for (const task of tasks) {
    const snapshot = presentTask(task, keys.get(task.board_uuid)!, labels.get(task.uuid) ?? []);
    await w.changes.record({ kind: 'task', uuid: task.uuid, change, board: task.board_uuid, fields, snapshot });
  }
}

/**
 * Moves the live tasks of one column into another of the same board (a state archived with migrate_to): after
 * the target column's last task, in their old order, each with its version bumped and its completion set or
 * cleared by the target's category. 422 `column_too_large` when the target would pass 5,000 live tasks.
 */
export async function moveLiveTasks(w: PlanWrite, from: { uuid: string }, to: { uuid: string; category: string }): Promise<number> {
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
  await recordTasks(w, moved, 'moved', ['state', 'rank']);
  return moved.length;
}

/** Tasks lose a deleted milestone (one change each). */
export async function detachMilestones(w: PlanWrite, milestoneUuids: string[]): Promise<number> {
  if (milestoneUuids.length === 0) return 0;
  const tasks: TaskRow[] = await w.db('plan_tasks').whereIn('milestone_uuid', milestoneUuids);
  const detached = tasks.map((task) => ({ ...task, milestone_uuid: null, version: Number(task.version) + 1, updated_at: w.now.toISOString() }));
  for (const task of detached) {
    await w.db('plan_tasks').where({ uuid: task.uuid }).update({ milestone_uuid: null, version: task.version, updated_at: task.updated_at });
  }
  await recordTasks(w, detached, 'updated', ['milestone']);
  return detached.length;
}
