import type { PlanChangeRow } from '../../../db/tables.ts';
import { readJson } from '../../../lib/json.ts';
import type { PageRequest } from '../../../lib/page.ts';
import type { PlanRead } from '../frame/context.ts';
import { pageOf } from '../frame/lists.ts';
import type { PersonColumns } from '../frame/presenters.ts';
import { visibleTask } from '../tasks/access.ts';

/**
 * A task's history, read from the change log (plan_changes.task_uuid): its own changes and those of what hangs on
 * it (relations, participants; comments and attachments log theirs the same way). Events are the rows as they
 * were logged; activity says what each change did, field by field, with the person and the agent that made it.
 */

export interface HistoryRow {
  row: PlanChangeRow;
  actor: PersonColumns | null;
}

async function actorsOf(r: PlanRead, rows: PlanChangeRow[]): Promise<Map<string, PersonColumns>> {
  const uuids = [...new Set(rows.map((row) => row.actor_uuid).filter((u): u is string => u !== null))];
  if (uuids.length === 0) return new Map();
  const people: PersonColumns[] = await r.db('users').whereIn('uuid', uuids).select('uuid', 'first_name', 'last_name', 'email');
  return new Map(people.map((p) => [p.uuid, p]));
}

export async function taskEvents(r: PlanRead, ref: string, newestFirst: boolean, page: PageRequest): Promise<{ count: number; rows: HistoryRow[] }> {
  const { task } = await visibleTask(r, ref);
  const order = newestFirst ? 'desc' : 'asc';
  const { count, rows } = await pageOf<PlanChangeRow>(() => r.db('plan_changes').where({ task_uuid: task.uuid }), page, (query) => query.select('*').orderBy('id', order));
  const actors = await actorsOf(r, rows);
  return { count, rows: rows.map((row) => ({ row, actor: row.actor_uuid ? (actors.get(row.actor_uuid) ?? null) : null })) };
}

export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface ActivityRow extends HistoryRow {
  changes: FieldChange[];
  /** The object as it was last logged (for a deletion: before it went). */
  snapshot: unknown;
}

/**
 * The task's activity, newest first: each change with, for the task's own updates, every field it touched as
 * `{field, from, to}` (from the task's previous snapshot in the log).
 */
export async function taskActivity(r: PlanRead, ref: string, page: PageRequest): Promise<{ count: number; rows: ActivityRow[] }> {
  const { task } = await visibleTask(r, ref);
  const { count, rows } = await taskEvents(r, task.uuid, true, page);
  if (rows.length === 0) return { count, rows: [] };
  const oldest = rows[rows.length - 1].row;
  // The task's own snapshot just before this page, for the diff of the page's oldest task change.
  const before: PlanChangeRow | undefined = await r.db('plan_changes').where({ task_uuid: task.uuid, object_kind: 'task', object_uuid: task.uuid }).where('id', '<', oldest.id).orderBy('id', 'desc').first();
  // The last snapshot of each object deleted on this page (a removed relation or participant).
  const deleted = rows.filter((h) => h.row.change_kind === 'deleted').map((h) => h.row);
  const lastSeen = new Map<string, unknown>();
  for (const row of deleted) {
    const seen = await r.db('plan_changes').where({ object_uuid: row.object_uuid }).where('id', '<', row.id).whereNotNull('snapshot').orderBy('id', 'desc').first('snapshot');
    if (seen) lastSeen.set(row.object_uuid, readJson(seen.snapshot, null));
  }
  let previous: Record<string, unknown> | null = before ? readJson(before.snapshot, null) : null;
  const entries: ActivityRow[] = [];
  for (const history of [...rows].reverse()) {
    const { row } = history;
    const snapshot = row.snapshot === null ? (lastSeen.get(row.object_uuid) ?? null) : readJson<unknown>(row.snapshot, null);
    let changes: FieldChange[] = [];
    if (row.object_kind === 'task' && row.snapshot !== null) {
      const current = snapshot as Record<string, unknown>;
      if (previous) changes = readJson<string[]>(row.changed_fields, []).map((field) => ({ field, from: previous![field] ?? null, to: current[field] ?? null }));
      previous = current;
    }
    entries.push({ ...history, changes, snapshot });
  }
  return { count, rows: entries.reverse() };
}
