import { archiveFields, timestamps } from '../frame/presenters.ts';
import type { GoalRow } from '../../../db/tables.ts';


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
