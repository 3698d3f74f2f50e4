import type { Visibility } from '../frame/access.ts';
import { archiveFields, timestamps } from '../frame/presenters.ts';

export interface ProjectRow {
  uuid: string;
  organization_uuid: string;
  goal_uuid: string | null;
  name: string;
  name_key: string;
  description: string;
  visibility: Visibility;
  created_by_uuid: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export function presentProject(row: ProjectRow) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    name: row.name,
    description: row.description,
    goal: row.goal_uuid,
    visibility: row.visibility,
    created_by: row.created_by_uuid,
    ...archiveFields(row),
    ...timestamps(row),
  };
}
