import type { Knex } from 'knex';
import type { Actor } from '../../../auth/credentials.ts';
import { canDeletePlanTask, personSeesPlanContainer } from '../../../auth/policy.ts';
import type { Executor, Trx } from '../../../db/connection.ts';
import { forDelete, forWrite } from '../../../db/locks.ts';
import { lockBoards } from '../frame/locks.ts';
import type { BoardRow, Role, TaskRow } from '../../../db/tables.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../../lib/errors.ts';
import { bool } from '../../../lib/json.ts';
import { isUuid } from '../../../lib/ids.ts';
import { memberRole, visibleBoard } from '../frame/access.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { resolveTaskRef } from './keys.ts';

/**
 * Tasks as the caller may see and change them: a task is visible exactly when its board is (frame/access.ts);
 * anything else, another organization's included, is a 404 with the body of an absent task.
 */

export interface TaskAccess {
  task: TaskRow;
  board: BoardRow;
}

/** The organization's task a uuid or `KEY-n` names, or null (no visibility check). */
export async function findTask(db: Executor, organizationUuid: string, ref: string): Promise<TaskRow | null> {
  const uuid = isUuid(ref) ? ref.toLowerCase() : await resolveTaskRef(db, organizationUuid, ref);
  if (!uuid) return null;
  const task: TaskRow | undefined = await db('plan_tasks').where({ uuid }).first();
  return task && task.organization_uuid === organizationUuid ? task : null;
}

/** A task the caller sees, with its board; 404 otherwise. */
export async function visibleTask(r: PlanRead, ref: string): Promise<TaskAccess> {
  const task = await findTask(r.db, r.actor.organization.uuid, ref);
  if (!task) throw notFound();
  const { row: board } = await visibleBoard<BoardRow>(r.db, r.actor, task.board_uuid);
  return { task, board };
}

export const versionConflict = (current: number) =>
  conflict('version_conflict', `The task changed since it was loaded; it is now at version ${current}.`, { current_version: current });

/**
 * A task the caller sees, locked for this write until the transaction ends (concurrent writers of one task take
 * turns), and at `expectedVersion` when one was sent: 409 `version_conflict` with `extra.current_version`
 * otherwise. The row is read under the lock, so the version compared is the committed one. `deleting`: the task
 * is about to be deleted, so it is locked as its DELETE will lock it, after the boards of the tasks it is linked
 * to (its deletion logs the links' removal on them).
 */
export async function writableTask(w: PlanWrite, ref: string, expectedVersion?: number, options: { deleting?: boolean } = {}): Promise<TaskAccess> {
  const access = await lockedTask(w, ref, options.deleting ? 'deletion' : 'task');
  if (expectedVersion !== undefined && expectedVersion !== Number(access.task.version)) throw versionConflict(Number(access.task.version));
  return access;
}

/**
 * A task the caller sees, with its board locked for this write but not the task itself: for writes of what hangs
 * on a task (a comment), which log on the board's stream but leave the task's row alone.
 */
export const taskOnLockedBoard = (w: PlanWrite, ref: string): Promise<TaskAccess> => lockedTask(w, ref, 'board');

async function lockedTask(w: PlanWrite, ref: string, lock: TaskLock): Promise<TaskAccess> {
  const uuid = isUuid(ref) ? ref.toLowerCase() : await resolveTaskRef(w.db, w.actor.organization.uuid, ref);
  if (!uuid) throw notFound();
  const task = await lockTask(w.db, uuid, lock);
  if (!task || task.organization_uuid !== w.actor.organization.uuid) throw notFound();
  const { row: board } = await visibleBoard<BoardRow>(w.db, w.actor, task.board_uuid);
  return { task, board };
}

/** What of a task a write locks after its board: nothing more, the task's row, or the row as its deletion does. */
type TaskLock = 'board' | 'task' | 'deletion';

/**
 * Locks a task's board, then the task (the lock order of every Plan write: the board's row before its tasks',
 * frame/locks.ts). Every change of a task takes the board's row anyway (its change-log number), so taking it
 * first costs no concurrency and keeps two writes from each holding what the other waits for. A task moved to
 * another board between the read and the lock is locked again on its new board.
 */
async function lockTask(trx: Trx, uuid: string, lock: TaskLock): Promise<TaskRow | undefined> {
  for (;;) {
    const seen: TaskRow | undefined = await trx('plan_tasks').where({ uuid }).first();
    if (!seen) return undefined;
    const boards = [seen.board_uuid, ...(lock === 'deletion' ? await boardsLinkedTo(trx, [uuid]) : [])];
    await lockBoards(trx, boards);
    const row = trx('plan_tasks').where({ uuid });
    const task: TaskRow | undefined = await (lock === 'board' ? row : lock === 'task' ? forWrite(trx, row) : forDelete(trx, row)).first();
    if (task && task.board_uuid !== seen.board_uuid) continue;
    // A link made between the read above and the locks: its board now, out of the order (rare; the retry covers it).
    if (task && lock === 'deletion') await lockBoards(trx, (await boardsLinkedTo(trx, [uuid])).filter((b) => !boards.includes(b)));
    return task;
  }
}

/**
 * The boards of the tasks linked (a relation, either way) to `tasks` (uuids, or a query selecting them): a
 * deletion of those tasks logs the links' removal on these boards, so it locks them with its own, in the order.
 */
export async function boardsLinkedTo(db: Executor, tasks: string[] | Knex.QueryBuilder): Promise<string[]> {
  const side = (from: 'source_task_uuid' | 'target_task_uuid', to: 'source_task_uuid' | 'target_task_uuid') =>
    db('plan_task_relations as r').join('plan_tasks as t', 't.uuid', `r.${to}`).whereIn(`r.${from}`, tasks).distinct('t.board_uuid');
  const rows: { board_uuid: string }[] = [...(await side('source_task_uuid', 'target_task_uuid')), ...(await side('target_task_uuid', 'source_task_uuid'))];
  return rows.map((r) => r.board_uuid);
}

/** Deleting a task: its creator, the board's managers and the admins (403 otherwise). */
export async function assertMayDelete(w: PlanWrite, access: TaskAccess): Promise<void> {
  const role = await memberRole(w.db, 'board', access.board.uuid, w.actor.user.uuid);
  if (!canDeletePlanTask(w.actor, role, access.task.created_by_uuid)) {
    throw forbidden('task_delete_forbidden', 'Only the task\'s creator, a manager of its board or an organization admin can delete it; archive it instead.');
  }
}

/**
 * Owners and participants must see the task's board (400 `participant_cannot_access_board`, naming the field and
 * the people): active members of the organization who may use Plan, and for a members-only board its members
 * and the admins. Someone unknown is refused the same way as someone who cannot see the board.
 */
export async function assertCanAccessBoard(db: Executor, actor: Actor, board: BoardRow, users: string[], parameter: string): Promise<void> {
  const wanted = [...new Set(users)];
  if (wanted.length === 0) return;
  const rows: { uuid: string; role: Role; is_active: boolean | number }[] = await db('users')
    .where({ organization_uuid: actor.organization.uuid })
    .whereIn('uuid', wanted)
    .select('uuid', 'role', 'is_active');
  const members = board.visibility === 'org' ? new Set<string>() : new Set((await db('plan_board_members').where({ board_uuid: board.uuid }).whereIn('user_uuid', wanted).select('user_uuid')).map((m) => m.user_uuid));
  const byUuid = new Map(rows.map((row) => [row.uuid, row]));
  const refused = wanted.filter((uuid) => {
    const user = byUuid.get(uuid);
    return !user || !bool(user.is_active) || !personSeesPlanContainer(user.role, board.visibility, members.has(uuid));
  });
  if (refused.length > 0) {
    throw badRequest('participant_cannot_access_board', `${parameter === 'owner' ? 'The owner' : 'A participant'} cannot see board ${board.key}: every owner and participant must be an active member who sees the board.`, { parameter, users: refused });
  }
}

/** 403 `task_archived`: an archived task cannot be duplicated. */
export const taskArchived = () => new ApiError(403, 'task_archived', 'This task is archived; restore it first.');
