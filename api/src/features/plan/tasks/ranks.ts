import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { Executor } from '../../../db/connection.ts';
import type { TaskRow } from '../../../db/tables.ts';
import { ApiError, conflict } from '../../../lib/errors.ts';
import type { PlanWrite } from '../frame/context.ts';
import { COLUMN_LIMIT, liveTasksInState, recordTaskChanges } from './repository.ts';

/**
 * Order within a column: each task's `rank` is a fractional index (fractional-indexing), so placing a task
 * between two others writes that task alone. Ranks are compared over every task of the column, archived ones
 * too, so a restored task never collides with one placed meanwhile. Callers hold the board's lock (lockBoard),
 * so two placements never compute the same rank, and a unique index on (board, state, rank) keeps any that would
 * (migration 0810) from being stored.
 */

/** Ranks longer than this are spread again over their neighbourhood (the column holds 64 characters). */
const RANK_SOFT_LIMIT = 48;

type Column = { board: string; state: string };

const columnQuery = (db: Executor, column: Column) => db('plan_tasks').where({ board_uuid: column.board, state_uuid: column.state });

/** The rank after the column's last task. */
export async function tailRank(db: Executor, column: Column): Promise<string> {
  const tail = await columnQuery(db, column).max({ rank: 'rank' }).first();
  return generateKeyBetween(tail?.rank ?? null, null);
}

/** 422 `column_too_large` when the column already holds 5,000 live tasks (`adding` more would pass it). */
export async function assertColumnRoom(db: Executor, state: string, adding = 1): Promise<void> {
  const present = await liveTasksInState(db, state);
  if (present + adding > COLUMN_LIMIT) {
    throw new ApiError(422, 'column_too_large', `This column already holds ${present} tasks; a column holds at most ${COLUMN_LIMIT}.`, { extra: { limit: COLUMN_LIMIT, current: present } });
  }
}

/** The first and last live tasks of a column, as `rank_neighbor_missing` names them. */
async function headAndTail(db: Executor, column: Column, boardKey: string) {
  const live = () => columnQuery(db, column).whereNull('archived_at').select('uuid', 'number');
  const [head] = await live().orderBy([{ column: 'rank' }, { column: 'uuid' }]).limit(1);
  const [tail] = await live().orderBy([{ column: 'rank', order: 'desc' }, { column: 'uuid', order: 'desc' }]).limit(1);
  const ref = (row: { uuid: string; number: number } | undefined) => (row ? { uuid: row.uuid, key: `${boardKey}-${row.number}` } : null);
  return { head: ref(head), tail: ref(tail) };
}

export interface Neighbours {
  /** The live task of the column the moved one goes right after / right before (already resolved and checked). */
  after: TaskRow | null;
  before: TaskRow | null;
}

/** 409 `rank_neighbor_missing`: a neighbour left the column (moved, archived, deleted); names the column's head and tail. */
export async function neighbourMissing(db: Executor, column: Column, boardKey: string, parameter: string): Promise<ApiError> {
  const ends = await headAndTail(db, column, boardKey);
  return conflict('rank_neighbor_missing', `The ${parameter} task is no longer in this column; place the task again against the column as it is now.`, { parameter, state: column.state, ...ends });
}

/** The rank of the first task of the column strictly above / below `rank`, other than `except`. */
async function nextRank(db: Executor, column: Column, rank: string, direction: 'up' | 'down', except: string): Promise<string | null> {
  const row = await columnQuery(db, column)
    .where('rank', direction === 'up' ? '>' : '<', rank)
    .whereNot('uuid', except)
    .orderBy('rank', direction === 'up' ? 'asc' : 'desc')
    .first('rank');
  return row?.rank ?? null;
}

/**
 * A rank for `task` between its neighbours: right after `after`, right before `before`, between the two (which
 * must still be in that order, else `rank_neighbor_missing` names `before`), or at the end of the column.
 */
export async function rankBetween(w: PlanWrite, column: Column, boardKey: string, task: TaskRow, neighbours: Neighbours): Promise<string> {
  const { after, before } = neighbours;
  let low: string | null;
  let high: string | null;
  if (after && before) {
    if (after.rank >= before.rank) throw await neighbourMissing(w.db, column, boardKey, 'before');
    // Tasks between the two (placed there since the caller looked): the real gap is right after `after`, which is
    // still before `before`. Between the two given ranks the task would take the rank of one placed before it.
    [low, high] = [after.rank, await nextRank(w.db, column, after.rank, 'up', task.uuid)];
  } else if (after) {
    [low, high] = [after.rank, await nextRank(w.db, column, after.rank, 'up', task.uuid)];
  } else if (before) {
    [low, high] = [await nextRank(w.db, column, before.rank, 'down', task.uuid), before.rank];
  } else {
    const tail = await columnQuery(w.db, column).whereNot('uuid', task.uuid).max({ rank: 'rank' }).first();
    [low, high] = [tail?.rank ?? null, null];
  }
  const rank = generateKeyBetween(low, high);
  return rank.length <= RANK_SOFT_LIMIT ? rank : spread(w, column, task, low, high);
}

/**
 * Repeated placements at one spot lengthen ranks. Past RANK_SOFT_LIMIT, the neighbourhood of the spot (doubling
 * until short ranks fit, at most the whole column) gets evenly spread ranks, the moved task among them: a local
 * rewrite of one column, never of the board. Each re-ranked neighbour is a `moved` change of its rank.
 */
async function spread(w: PlanWrite, column: Column, task: TaskRow, low: string | null, high: string | null): Promise<string> {
  for (let width = 16; ; width *= 2) {
    const below: TaskRow[] = low === null ? [] : await columnQuery(w.db, column).where('rank', '<=', low).whereNot('uuid', task.uuid).orderBy('rank', 'desc').limit(width + 1);
    const above: TaskRow[] = high === null ? [] : await columnQuery(w.db, column).where('rank', '>=', high).whereNot('uuid', task.uuid).orderBy('rank', 'asc').limit(width + 1);
    const outerLow = below.length > width ? below.pop()!.rank : null;
    const outerHigh = above.length > width ? above.pop()!.rank : null;
    const window = [...below.reverse(), task, ...above];
    const ranks = generateNKeysBetween(outerLow, outerHigh, window.length);
    if (ranks.every((r) => r.length <= RANK_SOFT_LIMIT) || (outerLow === null && outerHigh === null)) {
      const moved: TaskRow[] = [];
      for (const [i, neighbour] of window.entries()) {
        if (neighbour === task) continue;
        const updated = { ...neighbour, rank: ranks[i], version: Number(neighbour.version) + 1, updated_at: w.now.toISOString() };
        await w.db('plan_tasks').where({ uuid: neighbour.uuid }).update({ rank: updated.rank, version: updated.version, updated_at: updated.updated_at });
        moved.push(updated);
      }
      await recordTaskChanges(w, moved, 'moved', ['rank']);
      return ranks[window.indexOf(task)];
    }
  }
}
