import { timestamps } from '../frame/presenters.ts';
import type { MilestoneRow } from '../../../db/tables.ts';


export function presentMilestone(row: MilestoneRow) {
  return { uuid: row.uuid, id: row.uuid, project: row.project_uuid, name: row.name, description: row.description, target_date: row.target_date, ...timestamps(row) };
}
