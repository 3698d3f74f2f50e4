import { ApiError, ValidationFailed, badRequest, conflict, notFound } from '../../../lib/errors.ts';
import type { Executor } from '../../../db/connection.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { bool } from '../../../lib/json.ts';
import { visibleBoard } from '../frame/access.ts';
import { writableBoard } from '../frame/locks.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { unlessTaken } from '../frame/db-errors.ts';
import { nameKey } from '../frame/presenters.ts';
import { liveTasksInState, moveLiveTasks } from '../tasks/repository.ts';
import { pageOf, whereListed } from '../frame/lists.ts';
import { presentState } from './presenter.ts';
import type { Category, CreateStateInput, UpdateStateInput } from './schema.ts';
import type { BoardRow, StateRow } from '../../../db/tables.ts';

/**
 * A board's columns. Rules (spec "States and transitions", CONTRACT §9): a board keeps at least one live `done`
 * column (400 last_done_state); exactly one live column is the default, where new tasks land, and it is never a
 * done or canceled one; a state with live tasks is archived only by moving them (`migrate_to`, else 409
 * state_in_use); archived states stay (tasks and history point at them) and can be restored.
 */
export const DEFAULT_COLORS: Record<Category, string> = {
  backlog: '#95A2B3',
  todo: '#E2E2E2',
  in_progress: '#F2C94C',
  done: '#5E6AD2',
  canceled: '#95A2B3',
};

/** What a new board starts with: one column per category, Todo the default. */
const DEFAULT_STATES: { name: string; category: Category; isDefault: boolean }[] = [
  { name: 'Backlog', category: 'backlog', isDefault: false },
  { name: 'Todo', category: 'todo', isDefault: true },
  { name: 'In Progress', category: 'in_progress', isDefault: false },
  { name: 'Done', category: 'done', isDefault: false },
  { name: 'Canceled', category: 'canceled', isDefault: false },
];

/** Categories a default column may have: new tasks do not start finished. */
const DEFAULT_CAPABLE: Category[] = ['backlog', 'todo', 'in_progress'];

const nameTaken = () => new ValidationFailed({ name: ['A live state of this board already has this name.'] });
const notInitialized = (detail: string) => conflict('board_not_initialized', detail);

async function recordState(w: PlanWrite, row: StateRow, change: 'created' | 'updated' | 'archived' | 'restored', fields: string[] = []): Promise<StateRow> {
  await w.changes.record({ kind: 'state', uuid: row.uuid, change, board: row.board_uuid, fields, snapshot: presentState(row) });
  return row;
}

function newState(w: PlanWrite, board: { uuid: string; organization_uuid: string }, fields: { name: string; category: Category; color?: string; position: number; isDefault: boolean }): StateRow {
  return {
    uuid: uuidv7(w.now.getTime()),
    organization_uuid: board.organization_uuid,
    board_uuid: board.uuid,
    name: fields.name,
    name_key: nameKey(fields.name),
    category: fields.category,
    position: fields.position,
    color: fields.color ?? DEFAULT_COLORS[fields.category],
    is_default: fields.isDefault,
    archived_at: null,
    created_at: w.now.toISOString(),
    updated_at: w.now.toISOString(),
  };
}

export async function createDefaultStates(w: PlanWrite, board: BoardRow): Promise<void> {
  const rows = DEFAULT_STATES.map((s, position) => newState(w, board, { name: s.name, category: s.category, position, isDefault: s.isDefault }));
  await w.db('plan_states').insert(rows);
  for (const row of rows) await recordState(w, row, 'created');
}

const liveStates = (db: Executor, boardUuid: string): Promise<StateRow[]> =>
  db('plan_states').where({ board_uuid: boardUuid }).whereNull('archived_at').orderBy([{ column: 'position' }, { column: 'uuid' }]);

export async function listStates(r: PlanRead, boardUuid: string, includeArchived: boolean, page: PageRequest): Promise<{ count: number; rows: StateRow[] }> {
  await visibleBoard(r.db, r.actor, boardUuid);
  // Live columns in board order, then archived ones by when they were archived.
  return pageOf(() => whereListed(r.db('plan_states').where({ board_uuid: boardUuid }), { includeArchived }), page, (query) =>
    query.orderByRaw('case when archived_at is null then 0 else 1 end').orderBy([{ column: 'position' }, { column: 'archived_at' }, { column: 'uuid' }]),
  );
}

async function stateOf(db: Executor, boardUuid: string, stateUuid: string): Promise<StateRow> {
  const row: StateRow | undefined = await db('plan_states').where({ uuid: stateUuid }).first();
  if (!row || row.board_uuid !== boardUuid) throw notFound();
  return row;
}

export async function getState(r: PlanRead, boardUuid: string, stateUuid: string): Promise<StateRow> {
  await visibleBoard(r.db, r.actor, boardUuid);
  return stateOf(r.db, boardUuid, stateUuid);
}

async function assertNameFree(db: Executor, boardUuid: string, key: string, except: string | null): Promise<void> {
  const taken = await db('plan_states').where({ board_uuid: boardUuid, name_key: key }).whereNull('archived_at').first('uuid');
  if (taken && taken.uuid !== except) throw nameTaken();
}

async function hasDefault(db: Executor, boardUuid: string): Promise<boolean> {
  return (await db('plan_states').where({ board_uuid: boardUuid, is_default: true }).whereNull('archived_at').first('uuid')) !== undefined;
}

async function nextPosition(db: Executor, boardUuid: string): Promise<number> {
  const row = await db('plan_states').where({ board_uuid: boardUuid }).whereNull('archived_at').max({ position: 'position' }).first();
  return row?.position === null || row?.position === undefined ? 0 : Number(row.position) + 1;
}

export async function createState(w: PlanWrite, boardUuid: string, input: CreateStateInput): Promise<StateRow> {
  const { row: board } = await writableBoard<BoardRow>(w, boardUuid);
  const name = input.name.trim();
  await assertNameFree(w.db, board.uuid, nameKey(name), null);
  // A board without a default column (every earlier one archived) gets this one, if it may be one.
  const isDefault = DEFAULT_CAPABLE.includes(input.category) && !(await hasDefault(w.db, board.uuid));
  const row = newState(w, board, { name, category: input.category, color: input.color, position: await nextPosition(w.db, board.uuid), isDefault });
  await unlessTaken(() => w.db('plan_states').insert(row), nameTaken);
  return recordState(w, row, 'created');
}

async function applyStateChanges(w: PlanWrite, state: StateRow, changes: Partial<StateRow>, fields: string[]): Promise<StateRow> {
  if (Object.keys(changes).length === 0) return state;
  const updated = { ...state, ...changes, updated_at: w.now.toISOString() };
  await unlessTaken(() => w.db('plan_states').where({ uuid: state.uuid }).update({ ...changes, updated_at: updated.updated_at }), nameTaken);
  return recordState(w, updated, change(state, updated), fields);
}

const change = (before: StateRow, after: StateRow) => (before.archived_at === null && after.archived_at !== null ? 'archived' : before.archived_at !== null && after.archived_at === null ? 'restored' : 'updated');

/** The live done columns other than `except`: none left means `except` is the last (400 last_done_state). */
async function assertNotLastDone(db: Executor, state: StateRow, doing: string): Promise<void> {
  if (state.category !== 'done' || state.archived_at !== null) return;
  const others = (await liveStates(db, state.board_uuid)).filter((s) => s.category === 'done' && s.uuid !== state.uuid);
  if (others.length === 0) throw badRequest('last_done_state', `A board keeps at least one live done column; this is the last one, so it cannot be ${doing}.`);
}

/**
 * The default moves off `state` (it is being archived or becomes done/canceled): to `preferred` when that may be
 * a default, else to the first live backlog, todo or in-progress column. None left: 409 board_not_initialized.
 */
async function moveDefaultOff(w: PlanWrite, state: StateRow, preferred: StateRow | null): Promise<void> {
  if (!bool(state.is_default)) return;
  const candidates = (await liveStates(w.db, state.board_uuid)).filter((s) => s.uuid !== state.uuid && DEFAULT_CAPABLE.includes(s.category));
  const next = preferred && candidates.some((s) => s.uuid === preferred.uuid) ? preferred : candidates[0];
  if (!next) {
    throw notInitialized('The board would have no default column (a live backlog, todo or in-progress state) for new tasks; create one first.');
  }
  await applyStateChanges(w, next, { is_default: true }, ['is_default']);
}

export async function updateState(w: PlanWrite, boardUuid: string, stateUuid: string, input: UpdateStateInput): Promise<StateRow> {
  await writableBoard(w, boardUuid);
  const state = await stateOf(w.db, boardUuid, stateUuid);
  const changes: Partial<StateRow> = {};
  if (input.name !== undefined && input.name.trim() !== state.name) {
    const name = input.name.trim();
    if (state.archived_at === null) await assertNameFree(w.db, boardUuid, nameKey(name), state.uuid);
    Object.assign(changes, { name, name_key: nameKey(name) });
  }
  if (input.color !== undefined && input.color !== state.color) changes.color = input.color;
  if (input.category !== undefined && input.category !== state.category) {
    await assertNotLastDone(w.db, state, 're-categorized');
    changes.category = input.category;
  }
  const category = changes.category ?? state.category;
  if (input.is_default === false && bool(state.is_default)) {
    throw new ValidationFailed({ is_default: ['A board keeps one default column: make another state the default instead.'] });
  }
  if (input.is_default === true && !bool(state.is_default)) {
    if (state.archived_at !== null) throw new ValidationFailed({ is_default: ['An archived state cannot be the default; restore it first.'] });
    if (!DEFAULT_CAPABLE.includes(category)) throw new ValidationFailed({ is_default: ['The default column must be a backlog, todo or in-progress state.'] });
    const current = (await liveStates(w.db, boardUuid)).find((s) => bool(s.is_default));
    if (current) await applyStateChanges(w, current, { is_default: false }, ['is_default']);
    changes.is_default = true;
  } else if (bool(state.is_default) && !DEFAULT_CAPABLE.includes(category)) {
    // Becoming done or canceled: the default moves to another column first.
    await moveDefaultOff(w, state, null);
    changes.is_default = false;
  }
  return applyStateChanges(w, state, changes, Object.keys(changes).filter((f) => f !== 'name_key'));
}

/**
 * Archives a state. Its live tasks move to `migrate_to` (a live state of the same board: 400 state_not_on_board
 * for another board's, 409 state_in_use for an archived one or itself); without it, a state with live tasks
 * answers 409 state_in_use. The last live done column stays (400 last_done_state); the default moves along.
 */
export async function archiveState(w: PlanWrite, boardUuid: string, stateUuid: string, migrateTo: string | null | undefined) {
  await writableBoard(w, boardUuid);
  const state = await stateOf(w.db, boardUuid, stateUuid);
  if (state.archived_at !== null) return { state, moved_tasks: 0 };
  await assertNotLastDone(w.db, state, 'archived');
  let target: StateRow | null = null;
  if (migrateTo) {
    target = (await w.db('plan_states').where({ uuid: migrateTo }).first()) ?? null;
    if (!target || target.board_uuid !== boardUuid) {
      throw badRequest('state_not_on_board', 'migrate_to must name a state of this board.', { parameter: 'migrate_to' });
    }
    if (target.uuid === state.uuid || target.archived_at !== null) {
      throw conflict('state_in_use', 'migrate_to must name another live state of this board.', { parameter: 'migrate_to' });
    }
  }
  const live = await liveTasksInState(w.db, state.uuid);
  if (live > 0 && !target) {
    throw conflict('state_in_use', `${live} live task(s) are in this state; send migrate_to with the state to move them to.`, { live_tasks: live });
  }
  const moved = target ? await moveLiveTasks(w, state, target) : 0;
  await moveDefaultOff(w, state, target);
  const archived = await applyStateChanges(w, state, { archived_at: w.now.toISOString(), is_default: false }, []);
  return { state: archived, moved_tasks: moved };
}

/** Restores an archived state at the end of the board; its name must be free among live states. */
export async function restoreState(w: PlanWrite, boardUuid: string, stateUuid: string): Promise<StateRow> {
  await writableBoard(w, boardUuid);
  const state = await stateOf(w.db, boardUuid, stateUuid);
  if (state.archived_at === null) return state;
  await assertNameFree(w.db, boardUuid, state.name_key, state.uuid);
  const changes: Partial<StateRow> = { archived_at: null, position: await nextPosition(w.db, boardUuid) };
  if (DEFAULT_CAPABLE.includes(state.category) && !(await hasDefault(w.db, boardUuid))) changes.is_default = true;
  return applyStateChanges(w, state, changes, Object.keys(changes).filter((f) => f !== 'archived_at'));
}

/** New positions for every live column: `order` must name each exactly once (400 states_reorder_invalid). */
export async function reorderStates(w: PlanWrite, boardUuid: string, order: string[]): Promise<StateRow[]> {
  await writableBoard(w, boardUuid);
  const live = await liveStates(w.db, boardUuid);
  const wanted = order.map((uuid) => uuid.toLowerCase());
  const liveUuids = new Set(live.map((s) => s.uuid));
  if (wanted.length !== live.length || new Set(wanted).size !== wanted.length || !wanted.every((uuid) => liveUuids.has(uuid))) {
    throw new ApiError(400, 'states_reorder_invalid', 'order must name every live state of the board exactly once.', { extra: { live_states: live.map((s) => s.uuid) } });
  }
  const byUuid = new Map(live.map((s) => [s.uuid, s]));
  const result: StateRow[] = [];
  for (const [position, uuid] of wanted.entries()) {
    const state = byUuid.get(uuid)!;
    result.push(Number(state.position) === position ? state : await applyStateChanges(w, state, { position }, ['position']));
  }
  return result;
}

/** The column new tasks land in; 409 board_not_initialized when the board has none. */
export async function requireDefaultState(db: Executor, boardUuid: string): Promise<StateRow> {
  const row = (await liveStates(db, boardUuid)).find((s) => bool(s.is_default));
  if (!row) throw notInitialized('The board has no default column; make a state the default (PATCH is_default: true) first.');
  return row;
}

/** The first live done column (completing a task); 409 board_not_initialized when the board has none. */
export async function requireDoneState(db: Executor, boardUuid: string): Promise<StateRow> {
  const row = (await liveStates(db, boardUuid)).find((s) => s.category === 'done');
  if (!row) throw notInitialized('The board has no live done column; create one first.');
  return row;
}
