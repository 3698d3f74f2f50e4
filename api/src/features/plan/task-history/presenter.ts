import { readJson } from '../../../lib/json.ts';
import { iso } from '../../../lib/time.ts';
import { personRef } from '../frame/presenters.ts';
import type { ActivityRow, HistoryRow } from './service.ts';

const actorOf = (history: HistoryRow) => (history.actor ? personRef(history.actor) : null);

/** A change-log row of a task as its events list it. */
export function presentEvent(history: HistoryRow) {
  const { row } = history;
  return {
    id: Number(row.id),
    seq: Number(row.seq),
    board: row.board_uuid,
    object_kind: row.object_kind,
    object_uuid: row.object_uuid,
    change_kind: row.change_kind,
    /** The DailyBot client's name: `task.moved`, `task_relation.created`, … */
    type: `${row.object_kind}.${row.change_kind}`,
    changed_fields: readJson<string[]>(row.changed_fields, []),
    snapshot: readJson<unknown>(row.snapshot, null),
    actor: actorOf(history),
    agent_name: row.agent_name,
    created_at: iso(row.created_at),
  };
}

/** What a change did: `task.moved`, `task_relation.created`, …, by whom (and which agent), and the fields it changed. */
export function presentActivity(entry: ActivityRow) {
  const { row } = entry;
  return {
    id: Number(row.id),
    action: `${row.object_kind}.${row.change_kind}`,
    type: `${row.object_kind}.${row.change_kind}`,
    object: { kind: row.object_kind, uuid: row.object_uuid },
    actor: actorOf(entry),
    agent_name: row.agent_name,
    changes: entry.changes,
    ...(row.object_kind === 'task' ? {} : { snapshot: entry.snapshot }),
    created_at: iso(row.created_at),
  };
}
