import { bool } from '../../../lib/json.ts';
import { archiveFields, timestamps } from '../frame/presenters.ts';
import type { Category } from './schema.ts';
import type { StateRow } from '../../../db/tables.ts';


/** CONTRACT §9 `{uuid, name, category, position, color, is_default, archived_at}`, with id, board and times. */
export function presentState(row: StateRow) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    board: row.board_uuid,
    name: row.name,
    category: row.category,
    position: Number(row.position),
    color: row.color,
    is_default: bool(row.is_default),
    ...archiveFields(row),
    ...timestamps(row),
  };
}
