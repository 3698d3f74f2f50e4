import type { BoardRow, StateRow, TaskRow } from '../../../db/tables.ts';
import { ValidationFailed, badRequest } from '../../../lib/errors.ts';
import { isUuid } from '../../../lib/ids.ts';
import { orNull, visibleBoard } from '../frame/access.ts';
import type { PlanWrite } from '../frame/context.ts';
import { assertCanAccessBoard, findTask, writableTask } from './access.ts';
import { lockBoard } from '../frame/locks.ts';
import type { TaskAccess } from './access.ts';
import { allocateTaskNumber, keepFormerKey, lockBoardsWithin } from './keys.ts';
import { assertColumnRoom, neighbourMissing, rankBetween, tailRank } from './ranks.ts';
import { labelsOf, presentTasks, recordTaskChanges } from './repository.ts';
import type { PresentedTask } from './repository.ts';
import { completionIn, defaultStateOf, liveStateOf } from './rules.ts';
import { applyLabels, saveTask } from './service.ts';
import type { Allocation } from './service.ts';
import type { MoveBoardInput, MoveTaskInput } from './schema.ts';

/**
 * Where a task sits: its column and its place in it (`…/move/`), and its board (`…/move-board/`). Both lock the
 * board(s) first, so concurrent placements in a column take turns and never compute the same rank.
 */

/**
 * `…/move/ {state, after?, before?}`: into `state` (a live state of the task's board, else 400
 * `state_not_on_board`; a full column 422 `column_too_large`), right after `after` and/or right before
 * `before` (tasks of that column, by uuid or key), or at its end. A neighbour no longer in the column answers
 * 409 `rank_neighbor_missing` with the column's head and tail.
 */
export async function moveTask(w: PlanWrite, ref: string, input: MoveTaskInput, expectedVersion?: number): Promise<PresentedTask> {
  const access = await writableTask(w, ref, expectedVersion);
  const { task, board } = access;
  const state = await liveStateOf(w.db, board, input.state);
  await lockBoard(w.db, board.uuid);
  if (state.uuid !== task.state_uuid) await assertColumnRoom(w.db, state.uuid);
  const column = { board: board.uuid, state: state.uuid };
  const neighbour = async (parameter: 'after' | 'before', value: string | null | undefined): Promise<TaskRow | null> => {
    if (!value) return null;
    const found = await findTask(w.db, w.actor.organization.uuid, value);
    if (found && found.uuid === task.uuid) throw new ValidationFailed({ [parameter]: ['A task cannot be placed next to itself.'] });
    if (!found || found.board_uuid !== board.uuid || found.state_uuid !== state.uuid || found.archived_at !== null) throw await neighbourMissing(w.db, column, board.key, parameter);
    return found;
  };
  const after = await neighbour('after', input.after);
  const before = await neighbour('before', input.before);
  const rank = await rankBetween(w, column, board.key, task, { after, before });
  if (state.uuid === task.state_uuid && rank === task.rank) return (await presentTasks(w.db, [task]))[0];
  const next: Partial<TaskRow> = { state_uuid: state.uuid, rank, completed_at: completionIn(state, task.completed_at, w.now) };
  const fields = state.uuid === task.state_uuid ? ['rank'] : ['state', 'rank', ...(next.completed_at !== task.completed_at ? ['completed_at'] : [])];
  const [presented] = await recordTaskChanges(w, [await saveTask(w, task, next)], 'moved', fields);
  return presented;
}

const stateInvalid = (detail: string, extra?: Record<string, unknown>) => badRequest('move_board_state_invalid', detail, extra);

/**
 * The target column of a board move: `state` (a live state of the target board), or `state_map` (source state
 * uuid → live target state uuid; every key a state of the source board), the task's state looked up in it; a
 * state not in the map, or neither given, lands in the target's default column. Anything that does not fit the
 * target board answers 400 `move_board_state_invalid`.
 */
async function targetState(w: PlanWrite, task: TaskRow, target: BoardRow, input: MoveBoardInput): Promise<StateRow> {
  if (input.state && input.state_map) throw stateInvalid('Send state or state_map, not both.');
  const liveTarget = async (uuid: unknown, parameter: string): Promise<StateRow> => {
    const state: StateRow | undefined = typeof uuid === 'string' && isUuid(uuid) ? await w.db('plan_states').where({ uuid: uuid.toLowerCase() }).first() : undefined;
    if (!state || state.board_uuid !== target.uuid || state.archived_at !== null) throw stateInvalid(`${parameter} must name a live state of board ${target.key}.`, { parameter });
    return state;
  };
  if (input.state) return liveTarget(input.state, 'state');
  if (input.state_map) {
    let mapped: StateRow | null = null;
    for (const [from, to] of Object.entries(input.state_map)) {
      const source = isUuid(from) ? await w.db('plan_states').where({ uuid: from.toLowerCase() }).first('board_uuid') : undefined;
      if (!source || source.board_uuid !== task.board_uuid) throw stateInvalid(`state_map keys must be states of the task's board; ${from} is not.`, { parameter: 'state_map' });
      const state = await liveTarget(to, `state_map.${from}`);
      if (from.toLowerCase() === task.state_uuid) mapped = state;
    }
    if (mapped) return mapped;
  }
  return defaultStateOf(w.db, target);
}

/**
 * `…/move-board/ {board, state? | state_map?}`: the task goes to another board the caller sees, with a new key
 * there (its old key keeps resolving), at the end of the target column. A sub-task stays on its parent's board
 * and a task with live sub-tasks stays with them (400 `subtask_cross_board`); its archived sub-tasks are
 * detached. Its owner and participants must see the target board; its labels follow by name (a label of the
 * same name on the target board) and are otherwise dropped; its milestone stays when the target board is in the
 * same project. Logged as `moved` on both boards' streams (one `tasks.moved` event).
 */
export async function moveTaskToBoard(w: PlanWrite, ref: string, input: MoveBoardInput, allocation: Allocation, expectedVersion?: number): Promise<PresentedTask> {
  // Both boards first, in the lock order, then the task (writableTask takes its board again, already held).
  const seen = await findTask(w.db, w.actor.organization.uuid, ref);
  if (seen && isUuid(input.board)) await lockBoardsWithin(w.db, [seen.board_uuid, input.board.toLowerCase()], allocation.lockTimeoutMs);
  const access = await writableTask(w, ref, expectedVersion);
  const { task, board: source } = access;
  const found = await orNull(visibleBoard<BoardRow>(w.db, w.actor, input.board));
  if (!found) throw new ValidationFailed({ board: ['No board with this id.'] });
  const target = found.row;
  if (target.uuid === source.uuid) throw new ValidationFailed({ board: ['The task is already on this board; use …/move/ to change its column.'] });
  if (task.parent_task_uuid !== null) throw badRequest('subtask_cross_board', 'A sub-task stays on its parent\'s board; detach it (parent_task: null) first.');
  const children: TaskRow[] = await w.db('plan_tasks').where({ parent_task_uuid: task.uuid });
  if (children.some((c) => c.archived_at === null)) throw badRequest('subtask_cross_board', 'This task has live sub-tasks, which stay on its board; move or detach them first.');
  const state = await targetState(w, task, target, input);
  await assertCanAccessBoard(w.db, w.actor, target, task.owner_uuid ? [task.owner_uuid] : [], 'owner');
  const participants = (await w.db('plan_task_participants').where({ task_uuid: task.uuid }).select('user_uuid')).map((p) => p.user_uuid);
  await assertCanAccessBoard(w.db, w.actor, target, participants, 'participants');

  const number = await allocateTaskNumber(w.db, target.uuid, allocation.lockTimeoutMs, [source.uuid]);
  await assertColumnRoom(w.db, state.uuid);
  await keepFormerKey(w.db, task, w.now);

  const detached: TaskRow[] = [];
  for (const child of children) detached.push(await saveTask(w, child, { parent_task_uuid: null }));
  await recordTaskChanges(w, detached, 'updated', ['parent_task']);

  const labels = await labelsByName(w, access, target);
  await applyLabels(w, task.uuid, labels);
  const milestone = task.milestone_uuid !== null && target.project_uuid !== source.project_uuid ? null : task.milestone_uuid;
  const moved = await saveTask(w, task, {
    board_uuid: target.uuid,
    number,
    state_uuid: state.uuid,
    rank: await tailRank(w.db, { board: target.uuid, state: state.uuid }),
    completed_at: completionIn(state, task.completed_at, w.now),
    milestone_uuid: milestone,
  });
  const fields = ['board', 'key', 'state', 'rank', 'labels', ...(milestone !== task.milestone_uuid ? ['milestone'] : [])];
  // The source board's stream learns the task left (its snapshot names the new board), the target's that it came;
  // the task's own history and the organization event count the move once.
  await w.changes.record({ kind: 'task', uuid: task.uuid, change: 'moved', board: source.uuid, task: null, fields, snapshot: (await presentTasks(w.db, [moved]))[0], event: false });
  const [presented] = await recordTaskChanges(w, [moved], 'moved', fields);
  return presented;
}

/** The task's labels on the target board: its organization labels, and its board's by the same name there (live); the rest dropped. */
async function labelsByName(w: PlanWrite, access: TaskAccess, target: BoardRow): Promise<string[]> {
  const current = (await labelsOf(w.db, [access.task.uuid])).get(access.task.uuid) ?? [];
  if (current.length === 0) return [];
  const labels: { uuid: string; board_uuid: string | null; name_key: string }[] = await w.db('plan_labels').whereIn('uuid', current).select('uuid', 'board_uuid', 'name_key');
  const names = labels.filter((l) => l.board_uuid !== null).map((l) => l.name_key);
  const matches = names.length ? await w.db('plan_labels').where({ board_uuid: target.uuid }).whereIn('name_key', names).whereNull('archived_at').select('uuid') : [];
  return [...labels.filter((l) => l.board_uuid === null).map((l) => l.uuid), ...matches.map((l) => l.uuid)].sort();
}
