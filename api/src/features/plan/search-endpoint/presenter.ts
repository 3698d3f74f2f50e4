import { iso } from '../../../lib/time.ts';
import { presentBoard } from '../boards/presenter.ts';
import { presentProject } from '../projects/presenter.ts';
import type { Hit } from './service.ts';

/** One search result: what it is, the fields a result list shows, and the object as its own endpoint presents it. */
export function presentHit(hit: Hit) {
  if (hit.type === 'task') {
    const { task } = hit;
    return { type: 'task', uuid: task.uuid, id: task.uuid, key: task.key, title: task.title, board: task.board, project: hit.project, is_archived: task.archived_at !== null, updated_at: task.updated_at, object: task };
  }
  if (hit.type === 'board') {
    const { row } = hit;
    return { type: 'board', uuid: row.uuid, id: row.uuid, key: row.key, title: row.name, board: row.uuid, project: row.project_uuid, is_archived: row.archived_at !== null, updated_at: iso(row.updated_at), object: presentBoard(row) };
  }
  const { row } = hit;
  return { type: 'project', uuid: row.uuid, id: row.uuid, key: null, title: row.name, board: null, project: row.uuid, is_archived: row.archived_at !== null, updated_at: iso(row.updated_at), object: presentProject(row) };
}
