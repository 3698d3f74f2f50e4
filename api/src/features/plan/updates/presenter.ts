import { iso } from '../../../lib/time.ts';
import { personRef, timestamps } from '../frame/presenters.ts';
import type { PersonColumns } from '../frame/presenters.ts';
import type { ProjectUpdateRow } from '../../../db/tables.ts';


/** A project update: its author (the person whose credential posted it) and the agent that wrote it, if any. */
export function presentUpdate(row: ProjectUpdateRow, author: PersonColumns | null) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    project: row.project_uuid,
    body: row.body,
    health: row.health,
    author: author ? personRef(author) : null,
    agent_name: row.agent_name,
    ...timestamps(row),
    edited_at: iso(row.edited_at),
  };
}
