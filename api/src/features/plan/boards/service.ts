import { ValidationFailed, conflict } from '../../../lib/errors.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { assertCeiling } from '../entitlements/ceilings.ts';
import { managedBoard, orNull, visibleBoard, visibleProject, whereVisible } from '../frame/access.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import type { ContainerFilters } from '../frame/lists.ts';
import { unlessTaken } from '../frame/db-errors.ts';
import { containsPattern } from '../frame/lists.ts';
import { byOrdering, pageOf } from '../frame/lists.ts';
import { addMember } from '../members/service.ts';
import { createDefaultStates } from '../states/service.ts';
import { forgetLinksOfBoard } from '../tasks/relations.ts';
import { boardsLinkedTo } from '../tasks/access.ts';
import { lockBoards, writableBoard } from '../frame/locks.ts';
import { lockOrganization } from '../../../outbox/plan-changes.ts';
import { indexBoard } from '../search/index.ts';
import { lastPosition } from '../frame/order.ts';
import { clearForeignMilestones, placeBoard } from './moves.ts';
import type { ReorderInput } from './moves.ts';
import { presentBoard } from './presenter.ts';
import type { CreateBoardInput, UpdateBoardInput } from './schema.ts';
import type { BoardRow } from '../../../db/tables.ts';

export interface BoardFilters extends ContainerFilters {
  project?: string;
}

const duplicateKey = () => conflict('duplicate_board_key', 'This board key is in use or was used before (retired keys stay reserved).');

export async function listBoards(r: PlanRead, filters: BoardFilters, page: PageRequest): Promise<{ count: number; rows: BoardRow[] }> {
  // A filter naming a project the caller cannot see matches nothing.
  if (filters.project && !(await orNull(visibleProject(r.db, r.actor, filters.project)))) return { count: 0, rows: [] };
  const base = () => {
    const query = whereVisible(r.db('plan_boards as b'), r.db, r.actor, 'board', 'b');
    if (!filters.includeArchived) query.whereNull('b.archived_at');
    if (filters.search) {
      const pattern = containsPattern(filters.search);
      query.andWhere((match) => match.whereRaw("lower(b.name) like ? escape '\\'", [pattern]).orWhereRaw("lower(b.key) like ? escape '\\'", [pattern]));
    }
    if (filters.project) query.andWhere('b.project_uuid', filters.project);
    if (filters.visibility) query.andWhere('b.visibility', filters.visibility);
    if (filters.member) {
      query.whereExists(r.db('plan_board_members as m').select(r.db.raw('1')).whereRaw('m.board_uuid = b.uuid').andWhere('m.user_uuid', filters.member));
    }
    return query;
  };
  return pageOf(base, page, (query) => byOrdering(filters.ordering, 'b.')(query.select('b.*')));
}

export async function getBoard(r: PlanRead, uuid: string): Promise<BoardRow> {
  return (await visibleBoard<BoardRow>(r.db, r.actor, uuid)).row;
}

/** A project named in a board's body: one the caller can see, else a field error. */
async function projectField(w: PlanWrite, project: string | null | undefined): Promise<string | null | undefined> {
  if (project === undefined || project === null) return project;
  const row = await orNull(visibleProject<{ uuid: string; visibility: string }>(w.db, w.actor, project));
  if (!row) throw new ValidationFailed({ project: ['No project with this id.'] });
  return row.row.uuid;
}

/**
 * Reserves `key` for the board. Every key a board has had stays reserved in its organization (its tasks' old
 * KEY-n keep resolving), so a key is refused when any board ever held it, except this board itself.
 */
async function reserveKey(w: PlanWrite, boardUuid: string, key: string): Promise<void> {
  const held = await w.db('plan_board_keys').where({ organization_uuid: w.actor.organization.uuid, key }).first('board_uuid');
  if (held) {
    if (held.board_uuid !== boardUuid) throw duplicateKey();
    await w.db('plan_board_keys').where({ organization_uuid: w.actor.organization.uuid, key }).update({ retired_at: null });
    return;
  }
  await unlessTaken(
    () => w.db('plan_board_keys').insert({ organization_uuid: w.actor.organization.uuid, key, board_uuid: boardUuid, created_at: w.now.toISOString(), retired_at: null }),
    duplicateKey,
  );
}

/** Board fields the search index holds. */
const SEARCHED = new Set(['key', 'name', 'description']);

async function recordBoard(w: PlanWrite, row: BoardRow, change: 'created' | 'updated' | 'archived' | 'restored', fields: string[] = []): Promise<BoardRow> {
  if (change === 'created' || fields.some((field) => SEARCHED.has(field))) await indexBoard(w.db, row);
  await w.changes.record({ kind: 'board', uuid: row.uuid, change, board: row.uuid, project: row.project_uuid, fields, snapshot: presentBoard(row) });
  return row;
}

/** A new board: its creator is its first manager, and it starts with the default columns. */
export async function createBoard(w: PlanWrite, input: CreateBoardInput): Promise<BoardRow> {
  await assertCeiling(w, 'boards');
  const row: BoardRow = {
    uuid: uuidv7(w.now.getTime()),
    organization_uuid: w.actor.organization.uuid,
    project_uuid: (await projectField(w, input.project)) ?? null,
    key: input.key,
    name: input.name.trim(),
    description: input.description ?? '',
    visibility: input.visibility ?? 'org',
    created_by_uuid: w.actor.user.uuid,
    change_seq: 0,
    next_task_number: 1,
    position: await lastPosition(w.db, 'plan_boards', w.actor.organization.uuid),
    archived_at: null,
    created_at: w.now.toISOString(),
    updated_at: w.now.toISOString(),
  };
  await w.db('plan_boards').insert(row);
  await reserveKey(w, row.uuid, row.key);
  await recordBoard(w, row, 'created');
  await addMember(w, 'board', row.uuid, w.actor.user.uuid, 'manager');
  await createDefaultStates(w, row);
  return row;
}

export async function updateBoard(w: PlanWrite, uuid: string, input: UpdateBoardInput): Promise<BoardRow> {
  const { row: board } = await writableBoard<BoardRow>(w, uuid);
  const changes: Partial<BoardRow> = {};
  if (input.name !== undefined && input.name.trim() !== board.name) changes.name = input.name.trim();
  if (input.description !== undefined && input.description !== board.description) changes.description = input.description;
  if (input.visibility !== undefined && input.visibility !== board.visibility) changes.visibility = input.visibility;
  if (input.project !== undefined && input.project !== board.project_uuid) {
    changes.project_uuid = (await projectField(w, input.project)) ?? null;
    await clearForeignMilestones(w, board.uuid, changes.project_uuid);
  }
  if (input.key !== undefined && input.key !== board.key) {
    await reserveKey(w, board.uuid, input.key);
    await w.db('plan_board_keys').where({ organization_uuid: board.organization_uuid, key: board.key }).update({ retired_at: w.now.toISOString() });
    changes.key = input.key;
  }
  const fields = Object.keys(changes).map((f) => (f === 'project_uuid' ? 'project' : f));
  if (fields.length === 0) return board;
  const updated = { ...board, ...changes, updated_at: w.now.toISOString() };
  await w.db('plan_boards').where({ uuid }).update({ ...changes, updated_at: updated.updated_at });
  return recordBoard(w, updated, 'updated', fields);
}

/** `POST …/reorder/`: the board's place among its project's boards, or in another project (boards/moves.ts). */
export async function reorderBoard(w: PlanWrite, uuid: string, input: ReorderInput): Promise<BoardRow> {
  // The board's stream first, then its tasks' rows (a move clears milestones): the lock order of every Plan write.
  const { row: board } = await writableBoard<BoardRow>(w, uuid);
  const changes = await placeBoard(w, board, input);
  const updated: BoardRow = { ...board, ...changes, updated_at: w.now.toISOString() };
  await w.db('plan_boards').where({ uuid }).update({ ...changes, updated_at: updated.updated_at });
  return recordBoard(w, updated, 'updated', Object.keys(changes).map((f) => (f === 'project_uuid' ? 'project' : f)));
}

export async function archiveBoard(w: PlanWrite, uuid: string): Promise<BoardRow> {
  const { row: board } = await writableBoard<BoardRow>(w, uuid);
  if (board.archived_at !== null) return board;
  const updated = { ...board, archived_at: w.now.toISOString(), updated_at: w.now.toISOString() };
  await w.db('plan_boards').where({ uuid }).update({ archived_at: updated.archived_at, updated_at: updated.updated_at });
  return recordBoard(w, updated, 'archived');
}

/** Restoring counts against the plan's ceiling again. */
export async function restoreBoard(w: PlanWrite, uuid: string): Promise<BoardRow> {
  const { row: board } = await managedBoard<BoardRow>(w.db, w.actor, uuid);
  if (board.archived_at === null) return board;
  await assertCeiling(w, 'boards');
  const updated = { ...board, archived_at: null, updated_at: w.now.toISOString() };
  await w.db('plan_boards').where({ uuid }).update({ archived_at: null, updated_at: updated.updated_at });
  return recordBoard(w, updated, 'restored');
}

/**
 * Deletes the board with its states, labels, members and tasks. Its keys stay reserved. The deletion is logged
 * on the organization's stream: the board's own counter goes with it.
 *
 * Its dry run only reads (the change log of a dry run writes nothing): the answer, the cascade counted in one
 * statement and the links it would log, with no lock, where running the deletion would hold the board from its
 * writers for as long as deleting every task takes.
 */
export async function deleteBoard(w: PlanWrite, uuid: string) {
  if (!w.dryRun) {
    // The lock order (frame/locks.ts): the organization's stream (the deletion is logged there), then this board,
    // as its DELETE locks it, with the boards its tasks' links reach (their tasks log the links' removal), by uuid.
    await lockOrganization(w.db, w.actor.organization.uuid, w.now);
    await lockBoards(w.db, [uuid, ...(await boardsLinkedTo(w.db, w.db('plan_tasks').select('uuid').where({ board_uuid: uuid })))], uuid);
  }
  const { row: board } = await managedBoard<BoardRow>(w.db, w.actor, uuid);
  const answer = { deleted: { object_kind: 'board', uuid, key: board.key, name: board.name }, cascade: await cascadeOf(w, uuid) };
  // Tasks first: they point at the board's states. Their links to other boards' tasks are logged on those tasks.
  await forgetLinksOfBoard(w, uuid);
  if (!w.dryRun) {
    await w.db('plan_board_keys').where({ board_uuid: uuid }).whereNull('retired_at').update({ retired_at: w.now.toISOString() });
    await w.db('plan_tasks').where({ board_uuid: uuid }).delete();
    await w.db('plan_boards').where({ uuid }).delete();
  }
  await w.changes.record({ kind: 'board', uuid, change: 'deleted', board: null, project: board.project_uuid, snapshot: null });
  return answer;
}

/** What goes with a board, counted in one statement: one moment's counts, with or without the board's lock. */
async function cascadeOf(w: PlanWrite, uuid: string): Promise<Record<'states' | 'labels' | 'members' | 'tasks', number>> {
  const count = (table: string, as: string) => w.db(table).where({ board_uuid: uuid }).count('*').as(as);
  const [row] = await w.db.select(count('plan_states', 'states'), count('plan_labels', 'labels'), count('plan_board_members', 'members'), count('plan_tasks', 'tasks'));
  return { states: Number(row.states), labels: Number(row.labels), members: Number(row.members), tasks: Number(row.tasks) };
}
