import { bool } from '../../../lib/json.ts';
import { archiveFields, timestamps } from '../frame/presenters.ts';
import type { Category } from './schema.ts';

export interface StateRow {
  uuid: string;
  organization_uuid: string;
  board_uuid: string;
  name: string;
  name_key: string;
  category: Category;
  position: number;
  color: string;
  is_default: boolean | number;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

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
