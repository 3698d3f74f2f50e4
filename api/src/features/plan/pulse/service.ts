import type { StateRow } from '../../../db/tables.ts';
import { addDays } from '../../../lib/dates.ts';
import type { PlanRead } from '../frame/context.ts';
import type { PersonColumns } from '../frame/presenters.ts';
import { scopedBoards } from '../frame/scope.ts';
import type { BoardScope } from '../frame/scope.ts';

/**
 * The pulse of the boards the caller sees (live ones; one board, or a project's): for a period of days (UTC),
 * per state and per owner, how many tasks are there now and how many were created, completed, changed or
 * archived within it. One grouped statement over the tasks, the rest in code.
 */

export interface Period {
  from: string;
  to: string;
}

export interface Counts {
  /** Live tasks now. */
  tasks: number;
  /** Live tasks now that are not in a done or canceled column. */
  open: number;
  created: number;
  completed: number;
  /** Live tasks changed within the period (created ones included). */
  changed: number;
  archived: number;
}

export interface Pulse {
  period: Period;
  totals: Counts;
  states: { state: StateRow; counts: Counts }[];
  owners: { owner: PersonColumns | null; uuid: string | null; counts: Counts }[];
}

const zero = (): Counts => ({ tasks: 0, open: 0, created: 0, completed: 0, changed: 0, archived: 0 });

function add(into: Counts, row: Counts): void {
  for (const key of Object.keys(into) as (keyof Counts)[]) into[key] += Number(row[key]);
}

/** The default period: the 7 days ending today (UTC). */
export function defaultPeriod(now: Date, range: { from?: string; to?: string }): Period {
  const to = range.to ?? (range.from ? addDays(range.from, 6) : now.toISOString().slice(0, 10));
  return { from: range.from ?? addDays(to, -6), to };
}

export async function pulse(r: PlanRead, scope: BoardScope, period: Period): Promise<Pulse> {
  const start = `${period.from}T00:00:00.000Z`;
  const end = `${addDays(period.to, 1)}T00:00:00.000Z`;
  const within = (column: string) => r.db.raw(`sum(case when ?? >= ? and ?? < ? then 1 else 0 end)`, [column, start, column, end]);
  const live = (expression: string, bindings: string[] = []) => r.db.raw(`sum(case when t.archived_at is null${expression} then 1 else 0 end)`, bindings);
  const groups: (Counts & { state_uuid: string; owner_uuid: string | null })[] = await r.db('plan_tasks as t')
    .join('plan_states as s', 's.uuid', 't.state_uuid')
    .whereIn('t.board_uuid', scopedBoards(r, scope))
    .groupBy('t.state_uuid', 't.owner_uuid')
    .select('t.state_uuid', 't.owner_uuid', {
      tasks: live(''),
      open: live(" and s.category not in ('done', 'canceled')"),
      created: within('t.created_at'),
      completed: within('t.completed_at'),
      changed: live(' and t.updated_at >= ? and t.updated_at < ?', [start, end]),
      archived: within('t.archived_at'),
    });

  const totals = zero();
  const byState = new Map<string, Counts>();
  const byOwner = new Map<string | null, Counts>();
  for (const group of groups) {
    add(totals, group);
    if (!byState.has(group.state_uuid)) byState.set(group.state_uuid, zero());
    add(byState.get(group.state_uuid)!, group);
    if (!byOwner.has(group.owner_uuid)) byOwner.set(group.owner_uuid, zero());
    add(byOwner.get(group.owner_uuid)!, group);
  }
  // Every live column of the scope, empty ones too (a pulse shows the board's shape), in board order.
  const states: StateRow[] = await r.db('plan_states').whereIn('board_uuid', scopedBoards(r, scope)).where((q) => q.whereNull('archived_at').orWhereIn('uuid', [...byState.keys()]));
  states.sort((a, b) => (a.board_uuid < b.board_uuid ? -1 : a.board_uuid > b.board_uuid ? 1 : Number(a.position) - Number(b.position)));
  const people = [...byOwner.keys()].filter((uuid): uuid is string => uuid !== null);
  const persons: PersonColumns[] = people.length ? await r.db('users').whereIn('uuid', people).select('uuid', 'first_name', 'last_name', 'email') : [];
  const personOf = new Map(persons.map((p) => [p.uuid, p]));
  const owners = [...byOwner.entries()]
    .map(([uuid, counts]) => ({ uuid, owner: uuid ? (personOf.get(uuid) ?? null) : null, counts }))
    .sort((a, b) => b.counts.open - a.counts.open || (a.uuid ?? '~').localeCompare(b.uuid ?? '~'));
  return { period, totals, states: states.map((state) => ({ state, counts: byState.get(state.uuid) ?? zero() })), owners };
}
