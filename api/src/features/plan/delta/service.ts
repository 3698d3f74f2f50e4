import { parseDateTime } from '../../../lib/dates.ts';
import type { BoardRow, LabelRow, PlanChangeRow, StateRow, TaskRow } from '../../../db/tables.ts';
import { invalidFilter } from '../../../lib/errors.ts';
import { visibleBoard } from '../frame/access.ts';
import type { PlanRead } from '../frame/context.ts';
import type { Ordering } from '../frame/lists.ts';
import { allMembers } from '../members/service.ts';
import type { MemberView } from '../members/presenter.ts';
import { presentTasks } from '../tasks/repository.ts';
import type { PresentedTask } from '../tasks/repository.ts';
import { DELTA_WINDOW_MS, decodeCursor, windowExpired } from './cursor.ts';
import type { DeltaCursor } from './cursor.ts';

/**
 * A board's snapshot and its delta feed, for clients that keep a local copy (a board UI, an agent).
 *
 * The snapshot reads the board row, and with it the head of the board's change stream (`change_seq`), before
 * anything else: every change it may or may not show has a higher seq, so the feed from that head replays it,
 * and a change applied twice ends where it would have (each carries the object as it was after that change).
 * No transaction is needed for that, so a snapshot never holds the single SQLite connection or a PostgreSQL
 * snapshot while it reads a large board.
 *
 * The feed is the board's stream of `plan_changes` after the cursor, in seq order. The stream is gap-free (a seq
 * is taken in the writing transaction, which also writes its row), so a first row that is not cursor + 1, or no
 * row where the head says there are some, means the rows after the cursor were pruned: 400
 * `delta_window_expired`, as for a cursor issued more than 7 days ago.
 */

export interface BoardSnapshot {
  board: BoardRow;
  states: StateRow[];
  labels: LabelRow[];
  members: MemberView[];
  tasks: PresentedTask[];
  /** Comments per live task that has any. */
  commentCounts: Map<string, number>;
  head: number;
}

/** Object kinds a board's feed does not carry: saved views (a personal one is its owner's alone; read them through views/). */
const HIDDEN_KINDS = new Set(['view']);

/**
 * The board as a client keeps it. `sort` orders each column by a task field instead of rank (nulls last, then
 * rank): the DailyBot client's `board snapshot --sort`.
 */
export async function boardSnapshot(r: PlanRead, boardUuid: string, sort: Ordering = { column: 'rank', order: 'asc' }): Promise<BoardSnapshot> {
  const { row: board } = await visibleBoard<BoardRow>(r.db, r.actor, boardUuid);
  const head = Number(board.change_seq);
  const states: StateRow[] = await r.db('plan_states').where({ board_uuid: board.uuid });
  states.sort((a, b) => Number(a.position) - Number(b.position) || (a.uuid < b.uuid ? -1 : 1));
  // The board's labels and its organization's (their changes are on the organization's stream, not the board's).
  const labels: LabelRow[] = await r.db('plan_labels').where((q) => q.where({ board_uuid: board.uuid }).orWhere((org) => org.whereNull('board_uuid').where({ organization_uuid: board.organization_uuid })));
  labels.sort((a, b) => (a.name_key < b.name_key ? -1 : a.name_key > b.name_key ? 1 : a.uuid < b.uuid ? -1 : 1));
  const members = await allMembers(r, 'board', board.uuid);
  // Column by column along (state, archived_at): asked by board, SQLite's planner may walk every live task of
  // the organization's largest board instead (measured: 160 ms for a 200-task board beside 100,000 tasks).
  const rows: TaskRow[] = states.length === 0 ? [] : (await r.db('plan_tasks').whereIn('state_uuid', states.map((state) => state.uuid)).whereNull('archived_at')).filter((task: TaskRow) => task.board_uuid === board.uuid);
  // Board order: column by column (the states' order), then rank; ordered here, not by the engine (a board's
  // tasks are read whole anyway, and an ORDER BY makes SQLite prepare the statement again on every run).
  const column = new Map(states.map((state, i) => [state.uuid, i]));
  const byRank = (a: TaskRow, b: TaskRow) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : a.uuid < b.uuid ? -1 : 1);
  const bySort = (a: TaskRow, b: TaskRow) => {
    const [x, y] = [a[sort.column as keyof TaskRow], b[sort.column as keyof TaskRow]];
    if (x === y || sort.column === 'rank') return 0;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    return (x < y ? -1 : 1) * (sort.order === 'asc' ? 1 : -1);
  };
  rows.sort((a, b) => (column.get(a.state_uuid) ?? 0) - (column.get(b.state_uuid) ?? 0) || bySort(a, b) || byRank(a, b));
  return { board, states, labels, members, tasks: await presentTasks(r.db, rows), commentCounts: await commentCounts(r, rows), head };
}

/**
 * How many comments each of `tasks` has: one grouped read along plan_comments' (task_uuid, created_at) index,
 * a batch of tasks at a time (SQLite takes at most 32,766 bound values; a board holds 5,000 tasks a column).
 */
async function commentCounts(r: PlanRead, tasks: TaskRow[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let i = 0; i < tasks.length; i += 1000) {
    const batch = tasks.slice(i, i + 1000).map((task) => task.uuid);
    const rows: { task_uuid: string; count: number | string }[] = await r.db('plan_comments').whereIn('task_uuid', batch).groupBy('task_uuid').select('task_uuid').count({ count: '*' });
    for (const row of rows) counts.set(row.task_uuid, Number(row.count));
  }
  return counts;
}

export interface BoardDelta {
  board: BoardRow;
  changes: PlanChangeRow[];
  /** The seq the next request continues after. */
  last: number;
  hasMore: boolean;
}

/** The changes of a board after the cursor, at most `limit`, oldest first. */
export async function boardDelta(r: PlanRead, boardUuid: string, rawCursor: string | undefined, limit: number, since?: string): Promise<BoardDelta> {
  const { row: board } = await visibleBoard<BoardRow>(r.db, r.actor, boardUuid);
  const moment = rawCursor === undefined && since !== undefined ? parseDateTime(since) : null;
  const cursor: DeltaCursor = moment ? await cursorAt(r, board, moment) : decodeCursor(rawCursor ?? since, board.uuid, r.now);
  const head = Number(board.change_seq);
  if (cursor.seq > head) throw invalidFilter('cursor', 'This cursor is ahead of the board\'s changes: it is not one this API gave out.');
  if (cursor.seq === head) return { board, changes: [], last: head, hasMore: false };
  const rows: PlanChangeRow[] = await r.db('plan_changes').where({ board_uuid: board.uuid }).where('seq', '>', cursor.seq).orderBy('seq').limit(limit + 1);
  if (rows.length === 0 || Number(rows[0].seq) !== cursor.seq + 1) throw windowExpired();
  const page = rows.slice(0, limit);
  return { board, changes: page.filter((row) => !HIDDEN_KINDS.has(row.object_kind)), last: Number(page[page.length - 1].seq), hasMore: rows.length > limit };
}

/**
 * `updated_since` as a time (the DailyBot client's form): the board's changes after that moment, as if read from a
 * cursor issued then. Older than the 7-day window, or older than the oldest change still kept while the board
 * has changed since: 400 delta_window_expired (read the snapshot again).
 */
async function cursorAt(r: PlanRead, board: BoardRow, moment: Date): Promise<DeltaCursor> {
  if (r.now.getTime() - moment.getTime() > DELTA_WINDOW_MS) throw windowExpired();
  if (moment.getTime() > r.now.getTime() + 60_000) throw invalidFilter('updated_since', 'updated_since is in the future.');
  const at = moment.toISOString();
  const before = await r.db('plan_changes').where({ board_uuid: board.uuid }).where('created_at', '<=', at).max({ seq: 'seq' }).first();
  if (before?.seq !== null && before?.seq !== undefined) return { board: board.uuid, seq: Number(before.seq), issuedAt: moment.getTime() };
  // Nothing kept from before that moment: fine when the stream still starts at its first change.
  const first = await r.db('plan_changes').where({ board_uuid: board.uuid }).min({ seq: 'seq' }).first();
  if (first?.seq !== null && first?.seq !== undefined && Number(first.seq) > 1) throw windowExpired();
  return { board: board.uuid, seq: 0, issuedAt: moment.getTime() };
}
