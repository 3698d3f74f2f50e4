import { timestamps } from '../frame/presenters.ts';

export interface MilestoneRow {
  uuid: string;
  organization_uuid: string;
  project_uuid: string;
  name: string;
  description: string;
  target_date: string | null;
  created_at: string;
  updated_at: string;
}

export function presentMilestone(row: MilestoneRow) {
  return { uuid: row.uuid, id: row.uuid, project: row.project_uuid, name: row.name, description: row.description, target_date: row.target_date, ...timestamps(row) };
}
