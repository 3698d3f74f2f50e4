import type { TaskRow } from '../../../db/tables.ts';
import { forWrite } from '../../../db/locks.ts';
import { ApiError, ValidationFailed } from '../../../lib/errors.ts';
import type { PlanWrite } from '../frame/context.ts';
import { lockBoards } from '../frame/locks.ts';
import { findTask } from '../tasks/access.ts';
import { moveTask } from '../tasks/placement.ts';
import type { PresentedTask } from '../tasks/repository.ts';
import { archiveTask, batchLabels, createTask, restoreTask, updateTask } from '../tasks/service.ts';
import type { Allocation } from '../tasks/service.ts';
import type { CreateTaskInput } from '../tasks/schema.ts';
import type { BulkOperation } from './schema.ts';

/**
 * Bulk task changes: each item runs as its single-task call would, in a savepoint of the call's transaction,
 * so a refused item is undone alone and the others stay; with `atomic`, one refusal undoes every item. The tasks'
 * boards are locked first, by uuid, then the tasks, by uuid (the order every task write takes), so bulk calls
 * over the same tasks never wait on each other in a cycle.
 */

export type ItemOutcome = { index: number; task: PresentedTask } | { index: number; error: unknown };

type Run = (w: PlanWrite, item: Record<string, unknown>, allocation: Allocation) => Promise<PresentedTask>;

const RUNS: Record<BulkOperation, Run> = {
  update: (w, { task, version, ...fields }) => updateTask(w, task as string, fields, version as number | undefined),
  move: (w, { task, version, ...fields }) => moveTask(w, task as string, fields as { state: string }, version as number | undefined),
  archive: (w, { task, version }) => archiveTask(w, task as string, version as number | undefined),
  restore: (w, { task, version }) => restoreTask(w, task as string, version as number | undefined),
  label: (w, { task, version, mode, labels }) => batchLabels(w, task as string, mode as 'add' | 'remove' | 'replace', labels as string[], version as number | undefined),
  create: (w, { board, ...fields }, allocation) => createTask(w, board as string, fields as CreateTaskInput, allocation),
};

async function lockAll(w: PlanWrite, refs: string[]): Promise<void> {
  const tasks = (await Promise.all(refs.map((ref) => findTask(w.db, w.actor.organization.uuid, ref)))).filter((t): t is TaskRow => t !== null);
  const uuids = [...new Set(tasks.map((t) => t.uuid))].sort();
  // The Plan's lock order: boards (by uuid), then their tasks (by uuid); each item's own locks are then held already.
  await lockBoards(w.db, tasks.map((t) => t.board_uuid));
  if (uuids.length > 0) await forWrite(w.db, w.db('plan_tasks').whereIn('uuid', uuids).orderBy('uuid').select('uuid'));
}

/**
 * Runs `items` (each already checked against its operation's body, or carrying the refusal of that check as
 * `invalid`). Returns each item's outcome, and whether anything was kept.
 */
export async function runBulk(
  w: PlanWrite,
  operation: BulkOperation,
  items: ({ index: number; body: Record<string, unknown> } | { index: number; invalid: unknown })[],
  atomic: boolean,
  allocation: Allocation,
): Promise<{ outcomes: ItemOutcome[]; committed: boolean }> {
  await lockAll(w, items.flatMap((item) => ('body' in item && typeof item.body.task === 'string' ? [item.body.task] : [])));
  if (atomic) await w.db.raw('savepoint bulk_all');
  const outcomes: ItemOutcome[] = [];
  for (const item of items) {
    if ('invalid' in item) {
      outcomes.push({ index: item.index, error: item.invalid });
      continue;
    }
    const logged = w.changes.recorded.length;
    await w.db.raw('savepoint bulk_item');
    try {
      outcomes.push({ index: item.index, task: await RUNS[operation](w, item.body, allocation) });
      await w.db.raw('release savepoint bulk_item');
    } catch (err) {
      if (!isRefusal(err)) throw err;
      await w.db.raw('rollback to savepoint bulk_item');
      await w.db.raw('release savepoint bulk_item');
      w.changes.recorded.splice(logged);
      outcomes.push({ index: item.index, error: err });
    }
  }
  const failed = outcomes.some((o) => 'error' in o);
  if (atomic && failed) {
    await w.db.raw('rollback to savepoint bulk_all');
    w.changes.recorded.splice(0);
  }
  return { outcomes, committed: !(atomic && failed) };
}

/** A refusal an item answers with (a 4xx of the single call); anything else fails the whole call. */
const isRefusal = (err: unknown): boolean => err instanceof ValidationFailed || (err instanceof ApiError && err.status >= 400 && err.status < 500);
