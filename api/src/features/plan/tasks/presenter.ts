import { iso } from '../../../lib/time.ts';

/** A task row (table plan_tasks). */
export interface TaskRow {
  uuid: string;
  organization_uuid: string;
  board_uuid: string;
  number: number;
  title: string;
  description: string;
  state_uuid: string;
  owner_uuid: string | null;
  priority: number | null;
  estimate: number | null;
  start_date: string | null;
  due_date: string | null;
  parent_task_uuid: string | null;
  milestone_uuid: string | null;
  version: number;
  rank: string;
  created_by_uuid: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  archived_at: string | null;
}

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
