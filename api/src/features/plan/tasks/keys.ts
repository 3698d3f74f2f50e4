import type { Executor, Trx } from '../../../db/connection.ts';
import { isLockTimeout, withLockTimeout } from '../../../db/locks.ts';
import { lockBoards } from '../frame/locks.ts';
import { conflict } from '../../../lib/errors.ts';
import { isUuid } from '../../../lib/ids.ts';

/**
 * Task identifiers: a uuid, or `KEY-n` with the key of its board and a number the board gives out once
 * (plan_boards.next_task_number). Every key a board ever had resolves to it (plan_board_keys), and a task that
 * left a board keeps its number there (plan_task_keys): an old key keeps naming the same task.
 */

const KEY_PATTERN = /^([A-Za-z][A-Za-z0-9]{1,9})-([1-9][0-9]{0,9})$/;

/** `PLAT-12` as its board key and number; null for anything else. Keys are matched ignoring case. */
export function parseTaskKey(ref: string): { key: string; number: number } | null {
  const match = KEY_PATTERN.exec(ref);
  if (!match) return null;
  const number = Number(match[2]);
  return Number.isSafeInteger(number) && number <= 2_147_483_647 ? { key: match[1].toUpperCase(), number } : null;
}

/** The uuid of the organization's task a uuid or `KEY-n` names, or null. */
export async function resolveTaskRef(db: Executor, organizationUuid: string, ref: string): Promise<string | null> {
  if (isUuid(ref)) {
    const row = await db('plan_tasks').where({ uuid: ref.toLowerCase() }).first('organization_uuid');
    return row && row.organization_uuid === organizationUuid ? ref.toLowerCase() : null;
  }
  const parsed = parseTaskKey(ref);
  if (!parsed) return null;
  const board = await db('plan_board_keys').where({ organization_uuid: organizationUuid, key: parsed.key }).first('board_uuid');
  if (!board) return null;
  const current = await db('plan_tasks').where({ board_uuid: board.board_uuid, number: parsed.number }).first('uuid');
  if (current) return current.uuid;
  const former = await db('plan_task_keys').where({ board_uuid: board.board_uuid, number: parsed.number }).first('task_uuid');
  return former?.task_uuid ?? null;
}

const allocationFailed = () =>
  conflict('identifier_allocation_failed', 'The board is busy and no task number could be allocated in time; retry with the same Idempotency-Key.');

/**
 * Runs `work` (locks of boards) waiting at most `lockTimeoutMs` for each, else 409 `identifier_allocation_failed`;
 * the frame then frees the request's Idempotency-Key, so a retry with it runs. A deadlock is not that refusal: it
 * fails the transaction, which runs again (db/retry.ts).
 */
async function withinLockTimeout<T>(trx: Trx, lockTimeoutMs: number, work: () => Promise<T>): Promise<T> {
  try {
    return await withLockTimeout(trx, lockTimeoutMs, work);
  } catch (err) {
    if (isLockTimeout(err)) throw allocationFailed();
    throw err;
  }
}

/**
 * Locks boards in the Plan's lock order (frame/locks.ts) within `lockTimeoutMs`: what a board move takes before
 * its task (the source and the target), so two moves between the same boards in opposite directions never hold
 * one board each while waiting for the other.
 */
export const lockBoardsWithin = (trx: Trx, uuids: string[], lockTimeoutMs: number): Promise<void> => withinLockTimeout(trx, lockTimeoutMs, () => lockBoards(trx, uuids));

/**
 * The board's next task number, taken in the caller's transaction: the increment locks the board row until the
 * transaction ends, so concurrent creations on one board take consecutive numbers in turn, and a rolled-back
 * creation gives its number back (no gaps). `alsoLock`: other boards the operation changes (a board move's
 * source), locked first, in the order, within the same wait.
 */
export async function allocateTaskNumber(trx: Trx, boardUuid: string, lockTimeoutMs: number, alsoLock: string[] = []): Promise<number> {
  return withinLockTimeout(trx, lockTimeoutMs, async () => {
    // The increment locks the board; other boards and this one first, in the order, when there are others.
    if (alsoLock.length > 0) await lockBoards(trx, [boardUuid, ...alsoLock]);
    const [row] = await trx('plan_boards').where({ uuid: boardUuid }).update({ next_task_number: trx.raw('?? + 1', ['next_task_number']) }).returning('next_task_number');
    return Number(row.next_task_number) - 1;
  });
}

/** Keeps the number a task had on the board it leaves, so its old key keeps resolving to it. */
export async function keepFormerKey(trx: Trx, task: { uuid: string; organization_uuid: string; board_uuid: string; number: number }, now: Date): Promise<void> {
  await trx('plan_task_keys').insert({ board_uuid: task.board_uuid, number: task.number, task_uuid: task.uuid, organization_uuid: task.organization_uuid, created_at: now.toISOString() });
}
