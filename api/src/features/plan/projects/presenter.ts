import type { ProjectRow, Visibility } from '../../../db/tables.ts';
import { archiveFields, timestamps } from '../frame/presenters.ts';


export function presentProject(row: ProjectRow) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    name: row.name,
    description: row.description,
    goal: row.goal_uuid,
    visibility: row.visibility,
    start_date: row.start_date ?? null,
    target_date: row.target_date ?? null,
    health: row.health ?? null,
    created_by: row.created_by_uuid,
    /** Its place in the organization's order (compare as plain strings; set with …/reorder/). */
    position: row.position ?? null,
    ...archiveFields(row),
    ...timestamps(row),
  };
}
