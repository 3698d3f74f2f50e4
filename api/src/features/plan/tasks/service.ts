import type { BoardRow, StateRow, TaskRelationRow, TaskRow } from '../../../db/tables.ts';
import { ValidationFailed } from '../../../lib/errors.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { orNull, visibleBoard } from '../frame/access.ts';
import type { PlanWrite } from '../frame/context.ts';
import { indexTask } from '../search/index.ts';
import { assertCanAccessBoard, assertMayDelete, taskArchived, visibleTask, writableTask } from './access.ts';
import { lockBoard } from '../frame/locks.ts';
import type { TaskAccess } from './access.ts';
import { allocateTaskNumber } from './keys.ts';
import { assertColumnRoom, rankBetween, tailRank } from './ranks.ts';
import { labelsOf, presentTasks, recordTaskChanges } from './repository.ts';
import { removeCommentsOfTask } from './comment-removal.ts';
import { removeAttachmentsOf } from '../files/repository.ts';
import type { PresentedTask } from './repository.ts';
import { setParticipants } from './people.ts';
import { recordRelationChange } from './relations.ts';
import { assertDates, assertDescription, boardLabels, completionIn, defaultStateOf, liveStateOf, milestoneFor, milestoneOnCreate, parentFor } from './rules.ts';
import type { CreateTaskInput, UpdateTaskInput } from './schema.ts';

/** Creating, changing, archiving, restoring, duplicating and deleting tasks (placement: placement.ts). */

export interface Allocation {
  /** How long to wait for the board's KEY-n counter (config planLockTimeoutMs). */
  lockTimeoutMs: number;
}

/** A task on `board` (POST …/boards/{b}/tasks/; 404 when the caller does not see it). */
export async function createTask(w: PlanWrite, boardUuid: string, input: CreateTaskInput, allocation: Allocation): Promise<PresentedTask> {
  if (input.milestone !== undefined) throw milestoneOnCreate();
  const { row: board } = await visibleBoard<BoardRow>(w.db, w.actor, boardUuid);
  return insertTask(w, board, input, allocation);
}

/** POST /v1/plan/tasks/ names the board in its body: one the caller does not see is a field error there. */
export async function createTaskOn(w: PlanWrite, input: CreateTaskInput & { board: string }, allocation: Allocation): Promise<PresentedTask> {
  if (input.milestone !== undefined) throw milestoneOnCreate();
  const access = await orNull(visibleBoard<BoardRow>(w.db, w.actor, input.board));
  if (!access) throw new ValidationFailed({ board: ['No board with this id.'] });
  const { board: _board, ...fields } = input;
  return insertTask(w, access.row, fields, allocation);
}

/**
 * The one way a task row comes to be: its fields checked, then its board's next number taken (which locks the
 * board until commit, so the column count and the tail rank read after it are exact), then the row, its labels,
 * participants, search words and `created` change. `after` places it right after another task of its column.
 */
async function insertTask(w: PlanWrite, board: BoardRow, input: CreateTaskInput, allocation: Allocation, after?: TaskRow): Promise<PresentedTask> {
  const description = input.description ?? '';
  assertDescription(description);
  assertDates(input.start_date ?? null, input.due_date ?? null);
  const state = input.state ? await liveStateOf(w.db, board, input.state) : await defaultStateOf(w.db, board);
  if (input.owner) await assertCanAccessBoard(w.db, w.actor, board, [input.owner.toLowerCase()], 'owner');
  if (input.participants?.length) await assertCanAccessBoard(w.db, w.actor, board, input.participants.map((u) => u.toLowerCase()), 'participants');
  const labels = input.labels ? await boardLabels(w.db, board, input.labels, after ? input.labels : []) : [];
  const parent = input.parent_task ? await parentFor(w, board, null, input.parent_task) : null;

  const number = await allocateTaskNumber(w.db, board.uuid, allocation.lockTimeoutMs);
  await assertColumnRoom(w.db, state.uuid);
  const uuid = uuidv7(w.now.getTime());
  const column = { board: board.uuid, state: state.uuid };
  const rank = after && after.state_uuid === state.uuid ? await rankBetween(w, column, board.key, { uuid } as TaskRow, { after, before: null }) : await tailRank(w.db, column);
  const row: TaskRow = {
    uuid,
    organization_uuid: board.organization_uuid,
    board_uuid: board.uuid,
    number,
    title: input.title.trim(),
    description,
    state_uuid: state.uuid,
    owner_uuid: input.owner?.toLowerCase() ?? null,
    priority: input.priority ?? null,
    estimate: input.estimate ?? null,
    start_date: input.start_date ?? null,
    due_date: input.due_date ?? null,
    parent_task_uuid: parent?.uuid ?? null,
    milestone_uuid: after?.milestone_uuid ?? null,
    version: 1,
    rank,
    created_by_uuid: w.actor.user.uuid,
    created_at: w.now.toISOString(),
    updated_at: w.now.toISOString(),
    completed_at: completionIn(state, null, w.now),
    archived_at: null,
  };
  await w.db('plan_tasks').insert(row);
  if (labels.length > 0) await w.db('plan_task_labels').insert(labels.map((label) => ({ task_uuid: uuid, label_uuid: label })));
  if (input.participants?.length) await setParticipants(w, { task: row, board }, input.participants);
  await indexTask(w.db, row);
  const [presented] = await recordTaskChanges(w, [row], 'created', []);
  return presented;
}

export async function getTask(r: Parameters<typeof visibleTask>[0], ref: string): Promise<TaskAccess> {
  return visibleTask(r, ref);
}

const changed = <T>(next: T | undefined, current: T): next is T => next !== undefined && next !== current;

/**
 * PATCH: every field given that differs is changed; the version goes up by one and the change is logged
 * (`moved` when the state changes, else `updated`, with the fields touched). Nothing differing changes nothing.
 * `expectedVersion` (body `version` or If-Match) must be the current one: 409 `version_conflict` otherwise.
 */
export async function updateTask(w: PlanWrite, ref: string, input: UpdateTaskInput, expectedVersion?: number): Promise<PresentedTask> {
  const access = await writableTask(w, ref, expectedVersion);
  const { task, board } = access;
  const next: Partial<TaskRow> = {};
  if (input.title !== undefined && input.title.trim() !== task.title) next.title = input.title.trim();
  if (changed(input.description, task.description)) {
    assertDescription(input.description);
    next.description = input.description;
  }
  if (changed(input.priority, task.priority)) next.priority = input.priority;
  if (input.estimate !== undefined && (input.estimate === null ? null : Number(input.estimate)) !== (task.estimate === null ? null : Number(task.estimate))) next.estimate = input.estimate;
  if (changed(input.start_date, task.start_date)) next.start_date = input.start_date;
  if (changed(input.due_date, task.due_date)) next.due_date = input.due_date;
  assertDates(next.start_date !== undefined ? next.start_date : task.start_date, next.due_date !== undefined ? next.due_date : task.due_date);
  const owner = input.owner === undefined ? undefined : (input.owner?.toLowerCase() ?? null);
  if (changed(owner, task.owner_uuid)) {
    if (owner) await assertCanAccessBoard(w.db, w.actor, board, [owner], 'owner');
    next.owner_uuid = owner;
  }
  if (input.parent_task !== undefined) {
    const parent = input.parent_task === null ? null : (await parentFor(w, board, task, input.parent_task)).uuid;
    if (parent !== task.parent_task_uuid) next.parent_task_uuid = parent;
  }
  if (input.milestone !== undefined) {
    const milestone = input.milestone === null ? null : await milestoneFor(w.db, board, input.milestone);
    if (milestone !== task.milestone_uuid) next.milestone_uuid = milestone;
  }
  if (input.state !== undefined && input.state.toLowerCase() !== task.state_uuid) {
    const state = await liveStateOf(w.db, board, input.state);
    Object.assign(next, await enterColumn(w, access, state));
  }
  const labels = input.labels === undefined ? null : await labelChange(w, access, input.labels);
  if (labels) await applyLabels(w, task.uuid, labels);
  if (input.participants !== undefined) await setParticipants(w, access, input.participants);

  const fields = [...Object.keys(next).map(apiField), ...(labels ? ['labels'] : [])];
  if (fields.length === 0) return recordNothing(w, task);
  const updated = await saveTask(w, task, next);
  if (next.title !== undefined || next.description !== undefined) await indexTask(w.db, updated);
  const [presented] = await recordTaskChanges(w, [updated], next.state_uuid !== undefined ? 'moved' : 'updated', fields, { before: [task] });
  return presented;
}

/** API field names of task columns. */
const API_FIELDS: Record<string, string> = { state_uuid: 'state', owner_uuid: 'owner', parent_task_uuid: 'parent_task', milestone_uuid: 'milestone', board_uuid: 'board', number: 'key' };
const apiField = (column: string) => API_FIELDS[column] ?? column;

/** Writes `next` with the version one up; returns the task as it now is. */
export async function saveTask(w: PlanWrite, task: TaskRow, next: Partial<TaskRow>): Promise<TaskRow> {
  const updated: TaskRow = { ...task, ...next, version: Number(task.version) + 1, updated_at: w.now.toISOString() };
  await w.db('plan_tasks').where({ uuid: task.uuid }).update({ ...next, version: updated.version, updated_at: updated.updated_at });
  return updated;
}

/** The answer of a write that changed nothing: the task as it is (no version bump, no change logged). */
async function recordNothing(w: PlanWrite, task: TaskRow): Promise<PresentedTask> {
  return (await presentTasks(w.db, [task]))[0];
}

/**
 * The columns a task entering `state` (of its own board) changes: the end of that column (422
 * `column_too_large` when full; the board is locked first, so the count is exact), its completion.
 */
export async function enterColumn(w: PlanWrite, access: TaskAccess, state: StateRow): Promise<Partial<TaskRow>> {
  await lockBoard(w.db, access.board.uuid);
  await assertColumnRoom(w.db, state.uuid);
  return { state_uuid: state.uuid, rank: await tailRank(w.db, { board: access.board.uuid, state: state.uuid }), completed_at: completionIn(state, access.task.completed_at, w.now) };
}

/** The task's labels as they would be after `wanted` replaces them, or null when that is what they are. */
async function labelChange(w: PlanWrite, access: TaskAccess, wanted: string[]): Promise<string[] | null> {
  const current = (await labelsOf(w.db, [access.task.uuid])).get(access.task.uuid) ?? [];
  const labels = await boardLabels(w.db, access.board, wanted, current);
  return labels.join() === current.join() ? null : labels;
}

export async function applyLabels(w: PlanWrite, taskUuid: string, labels: string[]): Promise<void> {
  await w.db('plan_task_labels').where({ task_uuid: taskUuid }).delete();
  if (labels.length > 0) await w.db('plan_task_labels').insert(labels.map((label) => ({ task_uuid: taskUuid, label_uuid: label })));
}

/** `…/labels/batch/`: add, remove or replace labels; a change like any other (version, `updated`). */
export async function batchLabels(w: PlanWrite, ref: string, mode: 'add' | 'remove' | 'replace', wanted: string[], expectedVersion?: number): Promise<PresentedTask> {
  const access = await writableTask(w, ref, expectedVersion);
  const current = (await labelsOf(w.db, [access.task.uuid])).get(access.task.uuid) ?? [];
  const named = wanted.map((u) => u.toLowerCase());
  const target = mode === 'replace' ? named : mode === 'add' ? [...current, ...named] : current.filter((uuid) => !named.includes(uuid));
  const labels = mode === 'remove' ? target : await boardLabels(w.db, access.board, target, current);
  if (labels.join() === current.join()) return recordNothing(w, access.task);
  await applyLabels(w, access.task.uuid, labels);
  const [presented] = await recordTaskChanges(w, [await saveTask(w, access.task, {})], 'updated', ['labels']);
  return presented;
}

export async function archiveTask(w: PlanWrite, ref: string, expectedVersion?: number): Promise<PresentedTask> {
  const { task } = await writableTask(w, ref, expectedVersion);
  if (task.archived_at !== null) return recordNothing(w, task);
  const [presented] = await recordTaskChanges(w, [await saveTask(w, task, { archived_at: w.now.toISOString() })], 'archived', []);
  return presented;
}

/**
 * Back among the live tasks, in its column (422 `column_too_large` when the column filled meanwhile); a task
 * whose column was archived meanwhile returns to the board's default column.
 */
export async function restoreTask(w: PlanWrite, ref: string, expectedVersion?: number): Promise<PresentedTask> {
  const access = await writableTask(w, ref, expectedVersion);
  const { task, board } = access;
  if (task.archived_at === null) return recordNothing(w, task);
  const state = (await w.db('plan_states').where({ uuid: task.state_uuid }).first())!;
  const next: Partial<TaskRow> = { archived_at: null };
  if (state.archived_at !== null) {
    Object.assign(next, await enterColumn(w, access, await defaultStateOf(w.db, board)));
  } else {
    await lockBoard(w.db, board.uuid);
    await assertColumnRoom(w.db, state.uuid);
  }
  const [presented] = await recordTaskChanges(w, [await saveTask(w, task, next)], 'restored', next.state_uuid ? ['state', 'rank'] : []);
  return presented;
}

/**
 * A copy right after the original in its column, with a new key: title (or the one given), description, state,
 * owner, priority, estimate, dates, labels, participants, parent and milestone. An archived task is not
 * duplicated (403 `task_archived`).
 */
export async function duplicateTask(w: PlanWrite, ref: string, title: string | undefined, allocation: Allocation): Promise<PresentedTask> {
  const { task, board } = await visibleTask(w, ref);
  if (task.archived_at !== null) throw taskArchived();
  const labels = (await labelsOf(w.db, [task.uuid])).get(task.uuid) ?? [];
  const participants = (await w.db('plan_task_participants').where({ task_uuid: task.uuid }).orderBy('created_at').select('user_uuid')).map((p) => p.user_uuid);
  return insertTask(
    w,
    board,
    {
      title: title ?? task.title,
      description: task.description,
      state: task.state_uuid,
      owner: task.owner_uuid,
      priority: task.priority,
      estimate: task.estimate === null ? null : Number(task.estimate),
      start_date: task.start_date,
      due_date: task.due_date,
      labels,
      parent_task: task.parent_task_uuid,
      participants,
    },
    allocation,
    task,
  );
}

/**
 * Deletes a task (its creator, the board's managers, admins): its sub-tasks stay, detached (one `updated`
 * change each), its relations go (one `deleted` change each), then the task's `deleted` change.
 */
export async function deleteTask(w: PlanWrite, ref: string) {
  const access = await writableTask(w, ref, undefined, { deleting: true });
  await assertMayDelete(w, access);
  const { task, board } = access;
  const children: TaskRow[] = await w.db('plan_tasks').where({ parent_task_uuid: task.uuid });
  const detached: TaskRow[] = [];
  for (const child of children) detached.push(await saveTask(w, child, { parent_task_uuid: null }));
  await recordTaskChanges(w, detached, 'updated', ['parent_task']);
  // The links go with the task (by cascade); the tasks on their other side log it.
  const relations: TaskRelationRow[] = await w.db('plan_task_relations').where({ source_task_uuid: task.uuid }).orWhere({ target_task_uuid: task.uuid });
  for (const relation of relations) {
    const other = await w.db('plan_tasks').where({ uuid: relation.source_task_uuid === task.uuid ? relation.target_task_uuid : relation.source_task_uuid }).first('uuid', 'board_uuid');
    if (other) await recordRelationChange(w, relation, 'deleted', [other]);
  }
  // Its comments go by cascade; their files and reactions, and the task's own files, are removed here.
  const comments = await removeCommentsOfTask(w, task);
  const files = await removeAttachmentsOf(w, 'task', [task.uuid]);
  await w.db('plan_tasks').where({ uuid: task.uuid }).delete();
  await w.changes.record({ kind: 'task', uuid: task.uuid, change: 'deleted', board: task.board_uuid, snapshot: null });
  return {
    deleted: { object_kind: 'task', uuid: task.uuid, key: `${board.key}-${task.number}` },
    detached_subtasks: detached.length, removed_relations: relations.length, removed_comments: comments, removed_attachments: files,
  };
}
