import type { TaskRow } from '../../../db/tables.ts';
import { removeReactionsOf } from '../emoji/service.ts';
import { removeAttachmentsOf } from '../files/repository.ts';
import type { PlanWrite } from '../frame/context.ts';

/**
 * Comments leave with what they hang on: their files and reactions are removed and each gets a tombstone on the
 * task's board stream. The comments' own rows are deleted by the caller (a comment's deletion) or by the cascade
 * of their task's. Here, beside tasks, so that comments/ depends on tasks/ and never the other way.
 */
export async function removeComments(w: PlanWrite, task: TaskRow, uuids: string[]): Promise<void> {
  if (uuids.length === 0) return;
  await removeAttachmentsOf(w, 'comment', uuids);
  await removeReactionsOf(w, 'comment', uuids);
  for (const uuid of uuids) await w.changes.record({ kind: 'comment', uuid, change: 'deleted', board: task.board_uuid, task: task.uuid, snapshot: null });
}

/** A task's deletion takes its comments (answers how many). */
export async function removeCommentsOfTask(w: PlanWrite, task: TaskRow): Promise<number> {
  const uuids: string[] = (await w.db('plan_comments').where({ task_uuid: task.uuid }).orderBy('created_at').select('uuid')).map((r) => r.uuid);
  await removeComments(w, task, uuids);
  return uuids.length;
}
