/** What tasks link to beyond their own row (migrations 0620–0649). */

/** CONTRACT §9 relation types, stored from the source's side; the target reads the inverse. */
export const RELATION_TYPES = ['blocks', 'relates_to', 'duplicates'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** A KEY-n a task had on a board it left. */
export interface TaskKeyRow {
  board_uuid: string;
  number: number;
  task_uuid: string;
  organization_uuid: string;
  created_at: string;
}

export interface TaskRelationRow {
  uuid: string;
  organization_uuid: string;
  source_task_uuid: string;
  target_task_uuid: string;
  relation_type: RelationType;
  created_by_uuid: string | null;
  created_at: string;
}

export interface TaskParticipantRow {
  uuid: string;
  task_uuid: string;
  user_uuid: string;
  created_at: string;
}

export interface TaskSubscriptionRow {
  task_uuid: string;
  user_uuid: string;
  subscribed: boolean | number;
  updated_at: string;
}

/** The full-text index row of a task (SQLite: `id` keys its FTS5 row; PostgreSQL: `words` is its tsvector). */
export interface TaskSearchRow {
  id?: number;
  task_uuid: string;
  words?: unknown;
  /** Where the task is (migration 0671), so a search filters and orders its matches without reading tasks. */
  board_uuid?: string | null;
  live?: boolean | number;
  updated_at?: string | null;
  /** The task's column (migration 0890), so a board search counts its matches per column from this table alone. */
  state_uuid?: string | null;
}
