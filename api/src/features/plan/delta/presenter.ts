import type { PlanChangeRow } from '../../../db/tables.ts';
import { readJson } from '../../../lib/json.ts';
import { iso } from '../../../lib/time.ts';
import { presentBoard } from '../boards/presenter.ts';
import { presentLabel } from '../labels/presenter.ts';
import { presentMember } from '../members/presenter.ts';
import { presentState } from '../states/presenter.ts';
import { encodeCursor } from './cursor.ts';
import type { BoardDelta, BoardSnapshot } from './service.ts';

/** The board as a client keeps it: the board, its columns, labels and members, and its live tasks in board order. */
export function presentSnapshot(snapshot: BoardSnapshot, now: Date) {
  return {
    board: presentBoard(snapshot.board),
    states: snapshot.states.map(presentState),
    labels: snapshot.labels.map(presentLabel),
    members: snapshot.members.map(presentMember),
    tasks: snapshot.tasks,
    comment_counts: Object.fromEntries(snapshot.commentCounts),
    delta_cursor: encodeCursor({ board: snapshot.board.uuid, seq: snapshot.head, issuedAt: now.getTime() }),
    generated_at: now.toISOString(),
  };
}

/**
 * A task's `KEY-n` with the board's current key: a board's new key renames every task on it without a change of
 * each task, so a snapshot logged before the rename is shown with the key the task has now.
 */
function currentKey(snapshot: unknown, board: { uuid: string; key: string }): unknown {
  const task = snapshot as { board?: unknown; key?: unknown } | null;
  if (!task || task.board !== board.uuid || typeof task.key !== 'string') return snapshot;
  return { ...task, key: `${board.key}-${task.key.slice(task.key.lastIndexOf('-') + 1)}` };
}

export function presentDelta(delta: BoardDelta, now: Date) {
  return {
    board: delta.board.uuid,
    results: delta.changes.map((row: PlanChangeRow) => ({
      seq: Number(row.seq),
      object_kind: row.object_kind,
      object_uuid: row.object_uuid,
      task: row.task_uuid,
      change_kind: row.change_kind,
      changed_fields: readJson<string[]>(row.changed_fields, []),
      snapshot: row.object_kind === 'task' ? currentKey(readJson<unknown>(row.snapshot, null), delta.board) : readJson<unknown>(row.snapshot, null),
      actor: row.actor_uuid ? { uuid: row.actor_uuid } : null,
      agent_name: row.agent_name,
      created_at: iso(row.created_at),
    })),
    cursor: encodeCursor({ board: delta.board.uuid, seq: delta.last, issuedAt: now.getTime() }),
    has_more: delta.hasMore,
  };
}
