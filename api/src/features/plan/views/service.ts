import type { Actor } from '../../../auth/credentials.ts';
import { actsAsPerson } from '../../../auth/policy.ts';
import type { Executor } from '../../../db/connection.ts';
import type { ViewRow, ViewVisibility } from '../../../db/tables.ts';
import { badRequest, notFound } from '../../../lib/errors.ts';
import { forWrite } from '../../../db/locks.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { writeJson } from '../../../lib/json.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { orNull } from '../frame/access.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import {
  assertMayChange, assertMayHave, checkPrecondition, containerOf, inContainer, listEtag, lockContainer, placeOf, preconditionFailed, viewEtag, visibleViews,
} from './place.ts';
import type { Place, ViewContainer } from './place.ts';
import { presentView } from './presenter.ts';
import { viewModeOf } from './schema.ts';
import type { CreateViewInput, UpdateViewInput } from './schema.ts';

export type { ViewContainer } from './place.ts';
export { viewEtag } from './place.ts';

/**
 * Saved views of a board, a project or the workspace (views/place.ts says where they live and who may do what).
 * `personal` ones are their owner's alone (20 per person and place: view_limit_reached); `shared` ones everyone who
 * sees the place reads; the `board_default` one (at most one: a new default makes the old one shared) is what the
 * board opens with. Only the board's managers (and admins) make, edit or delete shared and default views
 * (view_visibility_forbidden); a shared workspace view is its owner's.
 *
 * Writes name the version they were made against with `If-Match` (the view's ETag, or for a creation the list's):
 * 412 precondition_failed when it is stale; a replacement (PUT) without one is 428 precondition_required, the
 * other writes check it when sent (the DailyBot client sends none). Permission and limits are checked first: a
 * precondition only decides between success and 412.
 *
 * Personal views are kept out of the change log (it feeds what other people read: activity, the delta feed);
 * shared and default ones are recorded on their board's stream (a project's and the workspace's on the
 * organization's).
 */
export const PERSONAL_VIEW_LIMIT = 20;

export async function listViews(r: PlanRead, container: ViewContainer, page: PageRequest): Promise<{ count: number; rows: ViewRow[]; etag: string }> {
  await placeOf(r.db, r.actor, container);
  const rows = await visibleViews(r.db, r.actor, container);
  return { count: rows.length, rows: rows.slice(page.offset, page.offset + page.limit), etag: listEtag(r.actor, container, rows) };
}

/**
 * A view the caller sees (someone else's personal view is absent), with where it lives. `lock` (the write): its
 * container's stream, then the view's row, so concurrent writes with one ETag take turns and the later ones
 * compare against what the first wrote (the lock order of docs/architecture.md: the stream before what is on it).
 */
async function viewOf(db: Executor, actor: Actor, uuid: string, lock?: PlanWrite): Promise<{ row: ViewRow; place: Place }> {
  if (lock) {
    const seen: ViewRow | undefined = await db('plan_views').where({ uuid }).first();
    if (seen && seen.organization_uuid === actor.organization.uuid) await lockContainer(lock, containerOf(seen));
  }
  const row: ViewRow | undefined = await (lock ? forWrite(db, db('plan_views').where({ uuid })) : db('plan_views').where({ uuid })).first();
  if (!row || row.organization_uuid !== actor.organization.uuid) throw notFound();
  if (row.visibility === 'personal' && (!actsAsPerson(actor) || row.owner_uuid !== actor.user.uuid)) throw notFound();
  return { row, place: await placeOf(db, actor, containerOf(row)) };
}

export async function getView(r: PlanRead, uuid: string): Promise<ViewRow> {
  return (await viewOf(r.db, r.actor, uuid)).row;
}

/**
 * The views among `uuids` the caller sees (for favorites): their own personal ones, and shared and default ones
 * of the boards and projects they see, and of the workspace.
 */
export async function seenViews(db: Executor, actor: Actor, uuids: string[]): Promise<ViewRow[]> {
  if (uuids.length === 0) return [];
  const rows: ViewRow[] = await db('plan_views').whereIn('uuid', uuids).where({ organization_uuid: actor.organization.uuid });
  const seen: ViewRow[] = [];
  for (const row of rows) {
    if (row.visibility === 'personal' && (!actsAsPerson(actor) || row.owner_uuid !== actor.user.uuid)) continue;
    if (await orNull(placeOf(db, actor, containerOf(row)))) seen.push(row);
  }
  return seen;
}

export async function assertUnderLimit(db: Executor, actor: Actor, place: Place, except: string | null): Promise<void> {
  const query = inContainer(db, actor, place.container).where({ visibility: 'personal', owner_uuid: actor.user.uuid });
  if (except) query.whereNot({ uuid: except });
  const [{ count }] = await query.count({ count: '*' });
  if (Number(count) >= PERSONAL_VIEW_LIMIT) {
    throw badRequest('view_limit_reached', `You already have ${PERSONAL_VIEW_LIMIT} personal views on this ${place.container.kind}.`, { limit: PERSONAL_VIEW_LIMIT });
  }
}

const changeScope = (row: ViewRow) => ({ board: row.board_uuid, project: row.project_uuid });

/** A default view makes the container's previous default shared. */
async function demoteDefault(w: PlanWrite, place: Place, except: string | null): Promise<void> {
  const query = inContainer(w.db, w.actor, place.container).where({ visibility: 'board_default' });
  if (except) query.whereNot({ uuid: except });
  for (const old of (await query) as ViewRow[]) {
    const demoted: ViewRow = { ...old, visibility: 'shared', version: Number(old.version) + 1, updated_at: w.now.toISOString() };
    await w.db('plan_views').where({ uuid: old.uuid }).update({ visibility: 'shared', version: demoted.version, updated_at: demoted.updated_at });
    await w.changes.record({ kind: 'view', uuid: old.uuid, change: 'updated', ...changeScope(old), fields: ['visibility'], snapshot: presentView(demoted) });
  }
}

export const sortList = (sort: string | string[] | undefined): string[] => (sort === undefined ? [] : Array.isArray(sort) ? sort : [sort]);

/** What a new view is made of (a creation's body, or an item of a save). */
type ViewFields = Pick<CreateViewInput, 'name' | 'filters' | 'sort' | 'view_mode' | 'group_by' | 'sub_group_by'>;

/** The row of a new view of the place, owned by the caller. */
export function newViewRow(w: PlanWrite, place: Place, input: ViewFields, visibility: ViewVisibility): ViewRow {
  const { container } = place;
  return {
    uuid: uuidv7(w.now.getTime()),
    organization_uuid: place.organizationUuid,
    board_uuid: container.kind === 'board' ? container.uuid : null,
    project_uuid: container.kind === 'project' ? container.uuid : null,
    owner_uuid: w.actor.user.uuid,
    name: input.name.trim(),
    visibility,
    filters: writeJson(input.filters ?? {}),
    sort: writeJson(sortList(input.sort)),
    view_mode: viewModeOf(input.view_mode) ?? null,
    group_by: input.group_by ?? null,
    sub_group_by: input.sub_group_by ?? null,
    version: 1,
    created_at: w.now.toISOString(),
    updated_at: w.now.toISOString(),
  };
}

/** A new view (`visibility` personal when absent); If-Match, when sent, is the list's ETag. */
export async function createView(w: PlanWrite, container: ViewContainer, input: CreateViewInput, ifMatch: string[]): Promise<ViewRow> {
  const place = await placeOf(w.db, w.actor, container);
  const visibility = (input.visibility ?? 'personal') as ViewVisibility;
  assertMayHave(w.actor, place, visibility);
  // The container's stream, until the write ends: the list ETag is read and the view written under it.
  await lockContainer(w, container);
  if (visibility === 'personal') await assertUnderLimit(w.db, w.actor, place, null);
  checkPrecondition(ifMatch, listEtag(w.actor, container, await visibleViews(w.db, w.actor, container)), false);
  if (visibility === 'board_default') await demoteDefault(w, place, null);
  const row = newViewRow(w, place, input, visibility);
  await w.db('plan_views').insert(row);
  if (visibility !== 'personal') await w.changes.record({ kind: 'view', uuid: row.uuid, change: 'created', ...changeScope(row), snapshot: presentView(row) });
  return row;
}

/** PUT (`replace`: absent filters and sort are emptied) or PATCH (only what the body names). */
export async function changeView(w: PlanWrite, uuid: string, input: UpdateViewInput, ifMatch: string[], replace: boolean): Promise<ViewRow> {
  const { row, place } = await viewOf(w.db, w.actor, uuid, w);
  const visibility = (input.visibility ?? row.visibility) as ViewVisibility;
  assertMayChange(w.actor, place, row);
  assertMayHave(w.actor, place, visibility);
  const becomesPersonal = visibility === 'personal' && row.visibility !== 'personal';
  if (becomesPersonal) await assertUnderLimit(w.db, w.actor, place, row.uuid);
  // A replacement (PUT) needs If-Match; a change of named fields (PATCH) checks it when sent (the DailyBot client sends none).
  checkPrecondition(ifMatch, viewEtag(row), replace);

  const changes: Partial<ViewRow> = {};
  if (input.name !== undefined && input.name.trim() !== row.name) changes.name = input.name.trim();
  if (visibility !== row.visibility) changes.visibility = visibility;
  // A shared view made personal becomes the personal view of whoever made it so.
  if (becomesPersonal && row.owner_uuid !== w.actor.user.uuid) changes.owner_uuid = w.actor.user.uuid;
  const filters = input.filters ?? (replace ? {} : undefined);
  if (filters !== undefined && writeJson(filters) !== row.filters) changes.filters = writeJson(filters);
  const sort = input.sort !== undefined || replace ? writeJson(sortList(input.sort)) : undefined;
  if (sort !== undefined && sort !== row.sort) changes.sort = sort;
  for (const field of ['view_mode', 'group_by', 'sub_group_by'] as const) {
    const value = input[field] !== undefined ? (field === 'view_mode' ? viewModeOf(input[field]) : input[field]) : replace ? null : undefined;
    if (value !== undefined && value !== (row[field] ?? null)) changes[field] = value;
  }
  if (Object.keys(changes).length === 0) return row;

  if (visibility === 'board_default' && row.visibility !== 'board_default') await demoteDefault(w, place, row.uuid);
  const updated: ViewRow = { ...row, ...changes, version: Number(row.version) + 1, updated_at: w.now.toISOString() };
  const written = await w.db('plan_views').where({ uuid, version: row.version }).update({ ...changes, version: updated.version, updated_at: updated.updated_at });
  if (written === 0) throw preconditionFailed();
  await recordViewChange(w, row, updated, Object.keys(changes).filter((f) => f !== 'owner_uuid'));
  return updated;
}

/** What other people see change: a view entering the shared stream is created there, one leaving it deleted. */
export async function recordViewChange(w: PlanWrite, before: ViewRow | null, after: ViewRow | null, fields: string[]): Promise<void> {
  const was = before !== null && before.visibility !== 'personal';
  const is = after !== null && after.visibility !== 'personal';
  if (!was && !is) return;
  const row = (after ?? before)!;
  const change = was && is ? 'updated' : is ? 'created' : 'deleted';
  await w.changes.record({ kind: 'view', uuid: row.uuid, change, ...changeScope(row), fields: change === 'updated' ? fields : [], snapshot: is ? presentView(after!) : null });
}

export async function deleteView(w: PlanWrite, uuid: string, ifMatch: string[]) {
  const { row, place } = await viewOf(w.db, w.actor, uuid, w);
  assertMayChange(w.actor, place, row);
  // Checked when sent: the DailyBot client deletes without one.
  checkPrecondition(ifMatch, viewEtag(row), false);
  await w.db('plan_views').where({ uuid }).delete();
  await recordViewChange(w, row, null, []);
  return { deleted: { object_kind: 'view', uuid, name: row.name } };
}
