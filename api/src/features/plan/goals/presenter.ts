import { archiveFields, timestamps } from '../frame/presenters.ts';
import type { GoalRow } from '../../../db/tables.ts';


export function presentGoal(row: GoalRow) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    name: row.name,
    description: row.description,
    period_start: row.period_start ?? null,
    period_end: row.period_end ?? null,
    status: row.status ?? null,
    created_by: row.created_by_uuid,
    ...archiveFields(row),
    ...timestamps(row),
  };
}
