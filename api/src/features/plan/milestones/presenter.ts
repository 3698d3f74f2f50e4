import { timestamps } from '../frame/presenters.ts';
import type { MilestoneRow } from '../../../db/tables.ts';


export function presentMilestone(row: MilestoneRow) {
  return {
    uuid: row.uuid, id: row.uuid, project: row.project_uuid, name: row.name, description: row.description, target_date: row.target_date,
    // `date` is the DailyBot client's name for target_date.
    date: row.target_date, completed_at: row.completed_at ?? null, archived_at: row.archived_at ?? null, ...timestamps(row),
  };
}
