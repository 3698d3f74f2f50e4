import type { BoardRow, Visibility } from '../../../db/tables.ts';
import { archiveFields, timestamps } from '../frame/presenters.ts';


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
    /** Its place in the organization's order (compare as plain strings; set with …/reorder/). */
    position: row.position ?? null,
    ...archiveFields(row),
    ...timestamps(row),
  };
}
