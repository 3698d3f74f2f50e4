import type { NotificationRouteRow } from '../../../db/tables.ts';
import { bool, readJson } from '../../../lib/json.ts';
import { iso } from '../../../lib/time.ts';
import { personRef, timestamps } from '../frame/presenters.ts';
import type { InboxItem } from './inbox.ts';

export function presentNotification({ row, actor }: InboxItem) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    kind: row.kind,
    object_type: row.object_type,
    object_uuid: row.object_uuid,
    board: row.board_uuid,
    project: row.project_uuid,
    title: row.title,
    body: row.body,
    data: readJson<Record<string, unknown>>(row.data, {}),
    actor: actor ? personRef(actor) : null,
    agent_name: row.agent_name,
    is_read: row.read_at !== null,
    read_at: iso(row.read_at),
    created_at: iso(row.created_at),
  };
}

export function presentRoute(row: NotificationRouteRow) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    name: row.name ?? null,
    kind: row.kind,
    // The DailyBot client reads the kinds as a list.
    kinds: [row.kind],
    channel: row.channel,
    enabled: bool(row.enabled ?? true),
    scope: readJson<{ boards: string[]; projects: string[] } | null>(row.scope, null),
    created_by: row.created_by_uuid,
    ...timestamps(row),
  };
}
