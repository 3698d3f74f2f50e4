import type { Visibility } from '../frame/access.ts';
import { archiveFields, timestamps } from '../frame/presenters.ts';

/** A board row (table plan_boards). */
export interface BoardRow {
  uuid: string;
  organization_uuid: string;
  project_uuid: string | null;
  key: string;
  name: string;
  description: string;
  visibility: Visibility;
  created_by_uuid: string | null;
  change_seq: number | string;
  next_task_number: number;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export function presentBoard(row: BoardRow) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    key: row.key,
    name: row.name,
    description: row.description,
    visibility: row.visibility,
    project: row.project_uuid,
    created_by: row.created_by_uuid,
    ...archiveFields(row),
    ...timestamps(row),
  };
}
