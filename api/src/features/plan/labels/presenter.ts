import { archiveFields, timestamps } from '../frame/presenters.ts';
import type { LabelRow } from '../../../db/tables.ts';


export function presentLabel(row: LabelRow) {
  return { uuid: row.uuid, id: row.uuid, board: row.board_uuid, name: row.name, color: row.color, description: row.description ?? '', ...archiveFields(row), ...timestamps(row) };
}
