import { archiveFields, timestamps } from '../frame/presenters.ts';

export interface LabelRow {
  uuid: string;
  organization_uuid: string;
  board_uuid: string;
  name: string;
  name_key: string;
  color: string;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export function presentLabel(row: LabelRow) {
  return { uuid: row.uuid, id: row.uuid, board: row.board_uuid, name: row.name, color: row.color, ...archiveFields(row), ...timestamps(row) };
}
