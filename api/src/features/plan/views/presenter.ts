import { readJson } from '../../../lib/json.ts';
import type { ViewRow } from '../../../db/tables.ts';
import { timestamps } from '../frame/presenters.ts';

/** What a view is a view of: a board's tasks, a project's, or the workspace's (neither). */
const scopeOf = (row: ViewRow) => (row.board_uuid ? 'board' : row.project_uuid ? 'project' : 'workspace');

export function presentView(row: ViewRow) {
  const scope = scopeOf(row);
  return {
    uuid: row.uuid,
    id: row.uuid,
    board: row.board_uuid,
    project: row.project_uuid,
    /** board, project or workspace; `kind` is the same, under the other name the DailyBot client reads. */
    scope,
    kind: scope,
    name: row.name,
    visibility: row.visibility,
    filters: readJson<Record<string, unknown>>(row.filters, {}),
    sort: readJson<string[]>(row.sort, []),
    view_mode: row.view_mode ?? null,
    group_by: row.group_by ?? null,
    sub_group_by: row.sub_group_by ?? null,
    owner: row.owner_uuid,
    version: Number(row.version),
    ...timestamps(row),
  };
}
