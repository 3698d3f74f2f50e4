import { archiveFields, timestamps } from '../frame/presenters.ts';

export interface GoalRow {
  uuid: string;
  organization_uuid: string;
  name: string;
  name_key: string;
  description: string;
  created_by_uuid: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export function presentGoal(row: GoalRow) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    name: row.name,
    description: row.description,
    created_by: row.created_by_uuid,
    ...archiveFields(row),
    ...timestamps(row),
  };
}
