import { iso } from '../../../lib/time.ts';
import type { TaskRow } from '../../../db/tables.ts';


/** CONTRACT §9 Task shape; `key` is KEY-n with the board's current key. */
export function presentTask(row: TaskRow, boardKey: string, labels: string[]) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    key: `${boardKey}-${row.number}`,
    title: row.title,
    description: row.description,
    board: row.board_uuid,
    state: row.state_uuid,
    owner: row.owner_uuid,
    priority: row.priority,
    estimate: row.estimate === null ? null : Number(row.estimate),
    start_date: row.start_date,
    due_date: row.due_date,
    labels,
    parent_task: row.parent_task_uuid,
    milestone: row.milestone_uuid,
    version: Number(row.version),
    rank: row.rank,
    created_by: row.created_by_uuid,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    completed_at: iso(row.completed_at),
    archived_at: iso(row.archived_at),
  };
}
