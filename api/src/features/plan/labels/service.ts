import type { Knex } from 'knex';
import type { Actor } from '../../../auth/credentials.ts';
import { assertPerson, can } from '../../../auth/policy.ts';
import { ValidationFailed, conflict, forbidden, notFound } from '../../../lib/errors.ts';
import type { Executor } from '../../../db/connection.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { visibleBoard, whereVisible } from '../frame/access.ts';
import { lockOrganizationStream, writableBoard } from '../frame/locks.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { unlessTaken } from '../frame/db-errors.ts';
import { nameKey } from '../frame/presenters.ts';
import { byOrdering, pageOf, whereListed } from '../frame/lists.ts';
import type { Ordering } from '../frame/lists.ts';
import { tasksWithLabel } from '../tasks/repository.ts';
import { presentLabel } from './presenter.ts';
import type { CreateLabelInput, UpdateLabelInput } from './schema.ts';
import type { BoardRow, LabelRow } from '../../../db/tables.ts';

/**
 * Labels of a board (managed by its managers) and of the organization (`board_uuid` null, migration 1001: every
 * board offers them; any person makes one, its creator or an admin edits it, an admin deletes it). Names are
 * unique among a board's live labels, and among the organization's; a label is deleted only when on no task.
 * A label's `home` below is its board's uuid, or null for the organization.
 */
const DEFAULT_COLOR = '#BEC2C8';
const nameTaken = (home: string | null) => new ValidationFailed({ name: [`A live label of this ${home === null ? 'organization' : 'board'} already has this name.`] });
const labelManagerRequired = (detail: string) => forbidden('label_manager_required', detail);

export interface LabelFilters {
  includeArchived: boolean;
  search?: string;
  ordering: Ordering;
}

/** The organization's own labels (no board), as a query condition. */
const organizationLabels = (organizationUuid: string) => (q: Knex.QueryBuilder) => q.whereNull('board_uuid').where({ organization_uuid: organizationUuid });

/** A board's labels: its own and its organization's. */
export async function listLabels(r: PlanRead, boardUuid: string, filters: LabelFilters, page: PageRequest): Promise<{ count: number; rows: LabelRow[] }> {
  const { row: board } = await visibleBoard<BoardRow>(r.db, r.actor, boardUuid);
  const base = () => whereListed(r.db('plan_labels').where((q) => q.where({ board_uuid: board.uuid }).orWhere(organizationLabels(board.organization_uuid))), filters);
  return pageOf(base, page, byOrdering(filters.ordering));
}

/** `GET /v1/plan/labels/`: the labels the caller can put on tasks: the organization's, and those of the boards they see. */
export async function listUsableLabels(r: PlanRead, filters: LabelFilters, page: PageRequest): Promise<{ count: number; rows: LabelRow[] }> {
  const boards = whereVisible(r.db('plan_boards as b').select('b.uuid'), r.db, r.actor, 'board', 'b');
  const base = () => whereListed(r.db('plan_labels').where((q) => q.where(organizationLabels(r.actor.organization.uuid)).orWhereIn('board_uuid', boards)), filters);
  return pageOf(base, page, byOrdering(filters.ordering));
}

async function labelOf(db: Executor, actor: Actor, home: string | null, labelUuid: string): Promise<LabelRow> {
  const row: LabelRow | undefined = await db('plan_labels').where({ uuid: labelUuid }).first();
  if (!row || row.board_uuid !== home || row.organization_uuid !== actor.organization.uuid) throw notFound();
  return row;
}

/**
 * Where a label named without its board lives (the DailyBot client's `labels/{label}/`): its board, or null for an
 * organization label. One of another organization is absent (404), like one that is not there.
 */
export async function homeOfLabel(r: PlanRead, labelUuid: string): Promise<string | null> {
  const row: Pick<LabelRow, 'board_uuid' | 'organization_uuid'> | undefined = await r.db('plan_labels').where({ uuid: labelUuid }).first('board_uuid', 'organization_uuid');
  if (!row || row.organization_uuid !== r.actor.organization.uuid) throw notFound();
  return row.board_uuid;
}

export async function getLabel(r: PlanRead, home: string | null, labelUuid: string): Promise<LabelRow> {
  if (home !== null) await visibleBoard(r.db, r.actor, home);
  return labelOf(r.db, r.actor, home, labelUuid);
}

/**
 * May the caller change labels of this home (a board: its managers; the organization: people, and an existing
 * label its creator or an admin, deleting it an admin)? Answers the label (null when making one). Takes the lock
 * of the stream the change logs on first (the board's, or the organization's: docs/architecture.md, "the lock
 * order"), so the label is read under it.
 */
async function managedLabel(w: PlanWrite, home: string | null, labelUuid: string | null, deleting = false): Promise<LabelRow | null> {
  if (home !== null) {
    await writableBoard(w, home);
    return labelUuid === null ? null : labelOf(w.db, w.actor, home, labelUuid);
  }
  assertPerson(w.actor, 'Organization labels are made by people; agent and organization keys cannot make or change them.');
  await lockOrganizationStream(w);
  if (labelUuid === null) return null;
  const label = await labelOf(w.db, w.actor, null, labelUuid);
  if (can(w.actor, 'plan.manage_all')) return label;
  if (deleting) throw labelManagerRequired('Only an organization admin can delete an organization label (archive it instead: is_archived).');
  if (label.created_by_uuid !== w.actor.user.uuid) throw labelManagerRequired('Only the creator of an organization label or an organization admin can change it.');
  return label;
}

async function assertNameFree(db: Executor, organizationUuid: string, home: string | null, key: string, except: string | null): Promise<void> {
  const query = home === null ? db('plan_labels').where(organizationLabels(organizationUuid)) : db('plan_labels').where({ board_uuid: home });
  const taken = await query.where({ name_key: key }).whereNull('archived_at').first('uuid');
  if (taken && taken.uuid !== except) throw nameTaken(home);
}

async function recordLabel(w: PlanWrite, row: LabelRow, change: 'created' | 'updated' | 'archived' | 'restored', fields: string[] = []): Promise<LabelRow> {
  await w.changes.record({ kind: 'label', uuid: row.uuid, change, board: row.board_uuid, fields, snapshot: presentLabel(row) });
  return row;
}

/** A label of a board, or of the organization (`home` null). */
export async function createLabel(w: PlanWrite, home: string | null, input: CreateLabelInput): Promise<LabelRow> {
  await managedLabel(w, home, null);
  const organizationUuid = w.actor.organization.uuid;
  const name = input.name.trim();
  if (!input.is_archived) await assertNameFree(w.db, organizationUuid, home, nameKey(name), null);
  const row: LabelRow = {
    uuid: uuidv7(w.now.getTime()),
    organization_uuid: organizationUuid,
    board_uuid: home,
    name,
    name_key: nameKey(name),
    color: input.color ?? DEFAULT_COLOR,
    description: input.description ?? '',
    archived_at: input.is_archived ? w.now.toISOString() : null,
    created_at: w.now.toISOString(),
    updated_at: w.now.toISOString(),
    created_by_uuid: w.actor.user.uuid,
  };
  await unlessTaken(() => w.db('plan_labels').insert(row), () => nameTaken(home));
  return recordLabel(w, row, 'created');
}

async function applyLabelChanges(w: PlanWrite, label: LabelRow, changes: Partial<LabelRow>, kind: 'updated' | 'archived' | 'restored'): Promise<LabelRow> {
  if (Object.keys(changes).length === 0) return label;
  const updated = { ...label, ...changes, updated_at: w.now.toISOString() };
  await unlessTaken(() => w.db('plan_labels').where({ uuid: label.uuid }).update({ ...changes, updated_at: updated.updated_at }), () => nameTaken(label.board_uuid));
  return recordLabel(w, updated, kind, kind === 'updated' ? Object.keys(changes).filter((f) => f !== 'name_key') : []);
}

/** Rename, recolour, describe; archive or restore with is_archived. */
export async function updateLabel(w: PlanWrite, home: string | null, labelUuid: string, input: UpdateLabelInput): Promise<LabelRow> {
  const label = (await managedLabel(w, home, labelUuid))!;
  const changes: Partial<LabelRow> = {};
  if (input.name !== undefined && input.name.trim() !== label.name) {
    const name = input.name.trim();
    if (label.archived_at === null) await assertNameFree(w.db, label.organization_uuid, home, nameKey(name), label.uuid);
    Object.assign(changes, { name, name_key: nameKey(name) });
  }
  if (input.color !== undefined && input.color !== label.color) changes.color = input.color;
  if (input.description !== undefined && input.description !== label.description) changes.description = input.description;
  // is_archived (the DailyBot client's field) archives or restores, as …/archive/ and …/restore/ do.
  if (input.is_archived === true && label.archived_at === null) changes.archived_at = w.now.toISOString();
  if (input.is_archived === false && label.archived_at !== null) {
    await assertNameFree(w.db, label.organization_uuid, home, changes.name_key ?? label.name_key, label.uuid);
    changes.archived_at = null;
  }
  return applyLabelChanges(w, label, changes, 'updated');
}

/** Archived labels stay on their tasks and can no longer be added (spec: is_archived true). */
export async function archiveLabel(w: PlanWrite, boardUuid: string, labelUuid: string): Promise<LabelRow> {
  const label = (await managedLabel(w, boardUuid, labelUuid))!;
  return label.archived_at !== null ? label : applyLabelChanges(w, label, { archived_at: w.now.toISOString() }, 'archived');
}

export async function restoreLabel(w: PlanWrite, boardUuid: string, labelUuid: string): Promise<LabelRow> {
  const label = (await managedLabel(w, boardUuid, labelUuid))!;
  if (label.archived_at === null) return label;
  await assertNameFree(w.db, label.organization_uuid, boardUuid, label.name_key, label.uuid);
  return applyLabelChanges(w, label, { archived_at: null }, 'restored');
}

/** A label still on tasks is archived instead (409 label_in_use). */
export async function deleteLabel(w: PlanWrite, home: string | null, labelUuid: string) {
  const label = (await managedLabel(w, home, labelUuid, true))!;
  const tasks = await tasksWithLabel(w.db, label.uuid);
  if (tasks > 0) throw conflict('label_in_use', `This label is on ${tasks} task(s); archive it instead.`, { tasks });
  await w.db('plan_labels').where({ uuid: label.uuid }).delete();
  await w.changes.record({ kind: 'label', uuid: label.uuid, change: 'deleted', board: home, snapshot: null });
  return { deleted: { object_kind: 'label', uuid: label.uuid, name: label.name } };
}
