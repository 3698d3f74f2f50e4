import { ValidationFailed, conflict, notFound } from '../../../lib/errors.ts';
import type { Executor } from '../../../db/connection.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { visibleBoard } from '../frame/access.ts';
import { writableBoard } from '../frame/locks.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { unlessTaken } from '../frame/db-errors.ts';
import { nameKey } from '../frame/presenters.ts';
import { byOrdering, pageOf, whereListed } from '../frame/lists.ts';
import type { Ordering } from '../frame/lists.ts';
import { tasksWithLabel } from '../tasks/repository.ts';
import { presentLabel } from './presenter.ts';
import type { CreateLabelInput, UpdateLabelInput } from './schema.ts';
import type { LabelRow } from '../../../db/tables.ts';

/** Labels of a board: managed by its managers; names unique among live labels; deleted only when on no task. */
const DEFAULT_COLOR = '#BEC2C8';
const nameTaken = () => new ValidationFailed({ name: ['A live label of this board already has this name.'] });

export interface LabelFilters {
  includeArchived: boolean;
  search?: string;
  ordering: Ordering;
}

export async function listLabels(r: PlanRead, boardUuid: string, filters: LabelFilters, page: PageRequest): Promise<{ count: number; rows: LabelRow[] }> {
  await visibleBoard(r.db, r.actor, boardUuid);
  return pageOf(() => whereListed(r.db('plan_labels').where({ board_uuid: boardUuid }), filters), page, byOrdering(filters.ordering));
}

async function labelOf(db: Executor, boardUuid: string, labelUuid: string): Promise<LabelRow> {
  const row: LabelRow | undefined = await db('plan_labels').where({ uuid: labelUuid }).first();
  if (!row || row.board_uuid !== boardUuid) throw notFound();
  return row;
}

/**
 * The board a label belongs to, for the DailyBot client's `labels/{label}/` (a label named without its board):
 * one of another organization is absent (404), like one that is not there.
 */
export async function boardOfLabel(r: PlanRead, labelUuid: string): Promise<string> {
  const row = await r.db('plan_labels as l').join('plan_boards as b', 'b.uuid', 'l.board_uuid').where({ 'l.uuid': labelUuid, 'b.organization_uuid': r.actor.organization.uuid }).first('l.board_uuid');
  if (!row) throw notFound();
  return row.board_uuid as string;
}

export async function getLabel(r: PlanRead, boardUuid: string, labelUuid: string): Promise<LabelRow> {
  await visibleBoard(r.db, r.actor, boardUuid);
  return labelOf(r.db, boardUuid, labelUuid);
}

async function assertNameFree(db: Executor, boardUuid: string, key: string, except: string | null): Promise<void> {
  const taken = await db('plan_labels').where({ board_uuid: boardUuid, name_key: key }).whereNull('archived_at').first('uuid');
  if (taken && taken.uuid !== except) throw nameTaken();
}

async function recordLabel(w: PlanWrite, row: LabelRow, change: 'created' | 'updated' | 'archived' | 'restored', fields: string[] = []): Promise<LabelRow> {
  await w.changes.record({ kind: 'label', uuid: row.uuid, change, board: row.board_uuid, fields, snapshot: presentLabel(row) });
  return row;
}

export async function createLabel(w: PlanWrite, boardUuid: string, input: CreateLabelInput): Promise<LabelRow> {
  const { row: board } = await writableBoard<{ uuid: string; organization_uuid: string; visibility: string }>(w, boardUuid);
  const name = input.name.trim();
  if (!input.is_archived) await assertNameFree(w.db, board.uuid, nameKey(name), null);
  const row: LabelRow = {
    uuid: uuidv7(w.now.getTime()),
    organization_uuid: board.organization_uuid,
    board_uuid: board.uuid,
    name,
    name_key: nameKey(name),
    color: input.color ?? DEFAULT_COLOR,
    description: input.description ?? '',
    archived_at: input.is_archived ? w.now.toISOString() : null,
    created_at: w.now.toISOString(),
    updated_at: w.now.toISOString(),
  };
  await unlessTaken(() => w.db('plan_labels').insert(row), nameTaken);
  return recordLabel(w, row, 'created');
}

async function applyLabelChanges(w: PlanWrite, label: LabelRow, changes: Partial<LabelRow>, kind: 'updated' | 'archived' | 'restored'): Promise<LabelRow> {
  if (Object.keys(changes).length === 0) return label;
  const updated = { ...label, ...changes, updated_at: w.now.toISOString() };
  await unlessTaken(() => w.db('plan_labels').where({ uuid: label.uuid }).update({ ...changes, updated_at: updated.updated_at }), nameTaken);
  return recordLabel(w, updated, kind, kind === 'updated' ? Object.keys(changes).filter((f) => f !== 'name_key') : []);
}

/** Rename, recolour, describe; archive or restore with is_archived. */
export async function updateLabel(w: PlanWrite, boardUuid: string, labelUuid: string, input: UpdateLabelInput): Promise<LabelRow> {
  await writableBoard(w, boardUuid);
  const label = await labelOf(w.db, boardUuid, labelUuid);
  const changes: Partial<LabelRow> = {};
  if (input.name !== undefined && input.name.trim() !== label.name) {
    const name = input.name.trim();
    if (label.archived_at === null) await assertNameFree(w.db, boardUuid, nameKey(name), label.uuid);
    Object.assign(changes, { name, name_key: nameKey(name) });
  }
  if (input.color !== undefined && input.color !== label.color) changes.color = input.color;
  if (input.description !== undefined && input.description !== label.description) changes.description = input.description;
  // is_archived (the DailyBot client's field) archives or restores, as …/archive/ and …/restore/ do.
  if (input.is_archived === true && label.archived_at === null) changes.archived_at = w.now.toISOString();
  if (input.is_archived === false && label.archived_at !== null) {
    await assertNameFree(w.db, boardUuid, changes.name_key ?? label.name_key, label.uuid);
    changes.archived_at = null;
  }
  return applyLabelChanges(w, label, changes, 'updated');
}

/** Archived labels stay on their tasks and can no longer be added (spec: is_archived true). */
export async function archiveLabel(w: PlanWrite, boardUuid: string, labelUuid: string): Promise<LabelRow> {
  await writableBoard(w, boardUuid);
  const label = await labelOf(w.db, boardUuid, labelUuid);
  return label.archived_at !== null ? label : applyLabelChanges(w, label, { archived_at: w.now.toISOString() }, 'archived');
}

export async function restoreLabel(w: PlanWrite, boardUuid: string, labelUuid: string): Promise<LabelRow> {
  await writableBoard(w, boardUuid);
  const label = await labelOf(w.db, boardUuid, labelUuid);
  if (label.archived_at === null) return label;
  await assertNameFree(w.db, boardUuid, label.name_key, label.uuid);
  return applyLabelChanges(w, label, { archived_at: null }, 'restored');
}

/** A label still on tasks is archived instead (409 label_in_use). */
export async function deleteLabel(w: PlanWrite, boardUuid: string, labelUuid: string) {
  await writableBoard(w, boardUuid);
  const label = await labelOf(w.db, boardUuid, labelUuid);
  const tasks = await tasksWithLabel(w.db, label.uuid);
  if (tasks > 0) throw conflict('label_in_use', `This label is on ${tasks} task(s); archive it instead.`, { tasks });
  await w.db('plan_labels').where({ uuid: label.uuid }).delete();
  await w.changes.record({ kind: 'label', uuid: label.uuid, change: 'deleted', board: boardUuid, snapshot: null });
  return { deleted: { object_kind: 'label', uuid: label.uuid, name: label.name } };
}
