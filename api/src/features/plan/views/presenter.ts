import { readJson } from '../../../lib/json.ts';
import type { ViewRow } from '../../../db/tables.ts';
import { timestamps } from '../frame/presenters.ts';

export function presentView(row: ViewRow) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    board: row.board_uuid,
    project: row.project_uuid,
    name: row.name,
    visibility: row.visibility,
    filters: readJson<Record<string, unknown>>(row.filters, {}),
    sort: readJson<string[]>(row.sort, []),
    view_mode: row.view_mode ?? null,
    group_by: row.group_by ?? null,
    owner: row.owner_uuid,
    version: Number(row.version),
    ...timestamps(row),
  };
}
