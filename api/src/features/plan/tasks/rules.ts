import type { Executor } from '../../../db/connection.ts';
import type { BoardRow, StateRow, TaskRow } from '../../../db/tables.ts';
import { ApiError, ValidationFailed, badRequest, conflict } from '../../../lib/errors.ts';
import { bool } from '../../../lib/json.ts';
import { orNull, visibleBoard } from '../frame/access.ts';
import type { PlanRead } from '../frame/context.ts';
import { findTask } from './access.ts';

/** The rules a task's fields follow, shared by creation, update, duplication and bulk calls. */

/** The spec's Limits: a task description holds at most 50,000 characters. */
export const DESCRIPTION_LIMIT = 50_000;

export function assertDescription(text: string): void {
  // Characters as people count them (code points): an emoji is one.
  if (text.length > DESCRIPTION_LIMIT && [...text].length > DESCRIPTION_LIMIT) {
    throw badRequest('description_too_long', `A task description holds at most ${DESCRIPTION_LIMIT} characters.`, { max_length: DESCRIPTION_LIMIT });
  }
}

export function assertDates(start: string | null, due: string | null): void {
  if (start && due && start > due) throw new ValidationFailed({ due_date: ['The due date cannot be before the start date.'] });
}

/** A live state of the task's board; anything else (another board's, archived, unknown) is 400 `state_not_on_board`. */
export async function liveStateOf(db: Executor, board: BoardRow, stateUuid: string, parameter = 'state'): Promise<StateRow> {
  const state: StateRow | undefined = await db('plan_states').where({ uuid: stateUuid.toLowerCase() }).first();
  if (!state || state.board_uuid !== board.uuid || state.archived_at !== null) {
    throw badRequest('state_not_on_board', `${parameter} must be a live state of board ${board.key}.`, { parameter });
  }
  return state;
}

/** The board's default column, where new tasks land; 409 `board_not_initialized` when it has none. */
export async function defaultStateOf(db: Executor, board: BoardRow): Promise<StateRow> {
  const states: StateRow[] = await db('plan_states').where({ board_uuid: board.uuid }).whereNull('archived_at');
  const found = states.find((s) => bool(s.is_default));
  if (!found) throw conflict('board_not_initialized', 'The board has no default column; make a state the default (PATCH is_default: true) first.');
  return found;
}

/** When a task enters `state`: done columns complete it (once), any other clears the completion. */
export const completionIn = (state: StateRow, current: string | null, now: Date): string | null => (state.category === 'done' ? (current ?? now.toISOString()) : null);

/**
 * Label uuids for a task of `board`: live labels of that board or of its organization. Labels the task already
 * carries may stay when archived (`keep`); adding an archived one is refused.
 */
export async function boardLabels(db: Executor, board: BoardRow, wanted: string[], keep: string[] = []): Promise<string[]> {
  const uuids = [...new Set(wanted.map((u) => u.toLowerCase()))];
  if (uuids.length === 0) return [];
  const rows: { uuid: string; organization_uuid: string; board_uuid: string | null; archived_at: string | null }[] = await db('plan_labels')
    .whereIn('uuid', uuids)
    .select('uuid', 'organization_uuid', 'board_uuid', 'archived_at');
  const offered = (l: (typeof rows)[number]) => l.board_uuid === board.uuid || (l.board_uuid === null && l.organization_uuid === board.organization_uuid);
  const usable = new Set(rows.filter((l) => offered(l) && (l.archived_at === null || keep.includes(l.uuid))).map((l) => l.uuid));
  const refused = uuids.filter((uuid) => !usable.has(uuid));
  if (refused.length > 0) throw new ValidationFailed({ labels: [`Not a live label of board ${board.key}: ${refused.join(', ')}.`] });
  return uuids.sort();
}

export const invalidRelation = (detail: string, extra?: Record<string, unknown>) => badRequest('invalid_relation', detail, extra);
const subtaskCrossBoard = (detail: string) => badRequest('subtask_cross_board', detail);
const depthExceeded = (detail: string) => badRequest('subtask_depth_exceeded', detail);

/**
 * The parent a task of `board` may have (`task` null while it is being created): a task the caller sees
 * (else a field error), not the task itself (`invalid_relation`), on the same board (`subtask_cross_board`),
 * not itself a sub-task, and only for a task with no sub-tasks of its own (`subtask_depth_exceeded`: one level).
 */
export async function parentFor(r: PlanRead, board: BoardRow, task: TaskRow | null, ref: string): Promise<TaskRow> {
  const parent = await findTask(r.db, r.actor.organization.uuid, ref);
  if (!parent || !(await orNull(visibleBoard(r.db, r.actor, parent.board_uuid)))) throw new ValidationFailed({ parent_task: ['No task with this id.'] });
  if (task && parent.uuid === task.uuid) throw invalidRelation('A task cannot be its own parent.', { parameter: 'parent_task' });
  if (parent.board_uuid !== board.uuid) throw subtaskCrossBoard('A sub-task lives on its parent\'s board.');
  if (parent.parent_task_uuid !== null) throw depthExceeded('Sub-tasks nest one level only: the parent is itself a sub-task.');
  if (task && (await r.db('plan_tasks').where({ parent_task_uuid: task.uuid }).first('uuid'))) {
    throw depthExceeded('Sub-tasks nest one level only: this task has sub-tasks of its own.');
  }
  return parent;
}

/** A milestone of the board's project (400 `milestone_not_on_project` for another project's, or a board without one). */
export async function milestoneFor(db: Executor, board: BoardRow, uuid: string): Promise<string> {
  const milestone = await db('plan_milestones').where({ uuid: uuid.toLowerCase() }).first('uuid', 'organization_uuid', 'project_uuid');
  if (!milestone || milestone.organization_uuid !== board.organization_uuid) throw new ValidationFailed({ milestone: ['No milestone with this id.'] });
  if (milestone.project_uuid !== board.project_uuid) {
    throw badRequest('milestone_not_on_project', board.project_uuid ? `The milestone belongs to another project than board ${board.key}'s.` : `Board ${board.key} belongs to no project, so its tasks take no milestone.`, { parameter: 'milestone' });
  }
  return milestone.uuid;
}

/** 501: a milestone is set with PATCH once the task exists (spec "Plan behaviours"). */
export const milestoneOnCreate = () =>
  new ApiError(501, 'not_implemented', 'A task is created without a milestone; set it with PATCH once the task exists.', { extra: { parameter: 'milestone' } });
