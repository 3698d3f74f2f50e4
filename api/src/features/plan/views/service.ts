import type { Actor } from '../../../auth/credentials.ts';
import { actsAsPerson, assertPerson, can, canManagePlanContainer } from '../../../auth/policy.ts';
import type { Executor } from '../../../db/connection.ts';
import type { ViewRow, ViewVisibility } from '../../../db/tables.ts';
import { ApiError, badRequest, forbidden, invalidFilter, notFound } from '../../../lib/errors.ts';
import { forWrite } from '../../../db/locks.ts';
import { ifMatchHolds } from '../../../lib/etags.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { writeJson } from '../../../lib/json.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { sha256Hex } from '../../../lib/secrets.ts';
import { memberRole, visibleBoard, visibleProject } from '../frame/access.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { lockStreamOf } from '../frame/locks.ts';
import { presentView } from './presenter.ts';
import type { CreateViewInput, SavedViewItem, UpdateViewInput } from './schema.ts';

/**
 * Saved views of a board or a project. `personal` ones are their owner's alone (20 per person and board:
 * view_limit_reached); `shared` ones everyone who sees the board reads; the `board_default` one (at most one: a
 * new default makes the old one shared) is what the board opens with. Only the board's managers (and admins) make,
 * edit or delete shared and default views (view_visibility_forbidden).
 *
 * Every write names the version it was made against: `If-Match` with the ETag of the last read (the view's, or
 * for a creation the list's), 428 precondition_required without it, 412 precondition_failed when it is stale.
 * Permission and limits are checked first: a precondition only decides between success and 412.
 *
 * Personal views are kept out of the change log (it feeds what other people read: activity, the delta feed);
 * shared and default ones are recorded on their board's stream (a project's on the organization's).
 */
export const PERSONAL_VIEW_LIMIT = 20;

export interface ViewContainer {
  kind: 'board' | 'project';
  uuid: string;
}

interface Place extends ViewContainer {
  organizationUuid: string;
  manager: boolean;
}

const visibilityForbidden = () => forbidden('view_visibility_forbidden', 'Only a manager of this board (or an organization admin) can make, edit or delete shared and default views.');
const preconditionRequired = () =>
  new ApiError(428, 'precondition_required', 'Saved-view writes need If-Match with the ETag of your last read (GET the view, or the list for a new one).');
const preconditionFailed = () => new ApiError(412, 'precondition_failed', 'The view changed since your last read: read it again and retry with its new ETag.');

/** A quoted, opaque entity tag. */
const tagOf = (text: string) => `"${sha256Hex(text).slice(0, 32)}"`;
export const viewEtag = (row: ViewRow) => tagOf(`view:${row.uuid}:${row.version}`);
const listEtag = (rows: ViewRow[]) => tagOf(`views:${rows.map((r) => `${r.uuid}:${r.version}`).sort().join(',')}`);

const column = (kind: ViewContainer['kind']) => (kind === 'board' ? 'board_uuid' : 'project_uuid');

async function placeOf(db: Executor, actor: Actor, container: ViewContainer): Promise<Place> {
  const access = container.kind === 'board' ? await visibleBoard<{ organization_uuid: string; visibility: string }>(db, actor, container.uuid) : await visibleProject<{ organization_uuid: string; visibility: string }>(db, actor, container.uuid);
  const role = can(actor, 'plan.manage_all') ? null : (access.role ?? (await memberRole(db, container.kind, container.uuid, actor.user.uuid)));
  return { ...container, organizationUuid: access.row.organization_uuid, manager: canManagePlanContainer(actor, role) };
}

/** The views of a container the caller sees: shared and default ones, and their own personal ones. */
async function visibleViews(db: Executor, actor: Actor, container: ViewContainer): Promise<ViewRow[]> {
  const query = db('plan_views').where({ [column(container.kind)]: container.uuid });
  if (actsAsPerson(actor)) query.andWhere((q) => q.whereNot({ visibility: 'personal' }).orWhere({ owner_uuid: actor.user.uuid }));
  else query.whereNot({ visibility: 'personal' });
  const rows: ViewRow[] = await query;
  const rank: Record<ViewVisibility, number> = { board_default: 0, shared: 1, personal: 2 };
  return rows.sort((a, b) => rank[a.visibility] - rank[b.visibility] || a.name.localeCompare(b.name) || a.uuid.localeCompare(b.uuid));
}

export async function listViews(r: PlanRead, container: ViewContainer, page: PageRequest): Promise<{ count: number; rows: ViewRow[]; etag: string }> {
  await placeOf(r.db, r.actor, container);
  const rows = await visibleViews(r.db, r.actor, container);
  return { count: rows.length, rows: rows.slice(page.offset, page.offset + page.limit), etag: listEtag(rows) };
}

/**
 * A view the caller sees (someone else's personal view is absent), with where it lives. `lock` (the write): its
 * container's stream, then the view's row, so concurrent writes with one ETag take turns and the later ones
 * compare against what the first wrote (the lock order of docs/architecture.md: the stream before what is on it).
 */
async function viewOf(db: Executor, actor: Actor, uuid: string, lock?: PlanWrite): Promise<{ row: ViewRow; place: Place }> {
  if (lock) {
    const seen: ViewRow | undefined = await db('plan_views').where({ uuid }).first();
    if (seen) await lockStreamOf(lock, { board: seen.board_uuid });
  }
  const row: ViewRow | undefined = await (lock ? forWrite(db, db('plan_views').where({ uuid })) : db('plan_views').where({ uuid })).first();
  if (!row || row.organization_uuid !== actor.organization.uuid) throw notFound();
  if (row.visibility === 'personal' && (!actsAsPerson(actor) || row.owner_uuid !== actor.user.uuid)) throw notFound();
  const container: ViewContainer = row.board_uuid ? { kind: 'board', uuid: row.board_uuid } : { kind: 'project', uuid: row.project_uuid! };
  return { row, place: await placeOf(db, actor, container) };
}

export async function getView(r: PlanRead, uuid: string): Promise<ViewRow> {
  return (await viewOf(r.db, r.actor, uuid)).row;
}

function checkPrecondition(ifMatch: string[], etag: string, required = true): void {
  if (ifMatch.length === 0) {
    if (required) throw preconditionRequired();
    return;
  }
  if (!ifMatchHolds(ifMatch, etag)) throw preconditionFailed();
}

/** Who may give a view this visibility: a person for personal views, a manager for the others. */
function assertMayHave(actor: Actor, place: Place, visibility: ViewVisibility): void {
  if (visibility === 'personal') assertPerson(actor, 'Personal views belong to a person; agent and organization keys cannot have them.');
  else if (!place.manager) throw visibilityForbidden();
}

async function assertUnderLimit(db: Executor, actor: Actor, place: Place, except: string | null): Promise<void> {
  const query = db('plan_views').where({ [column(place.kind)]: place.uuid, visibility: 'personal', owner_uuid: actor.user.uuid });
  if (except) query.whereNot({ uuid: except });
  const [{ count }] = await query.count({ count: '*' });
  if (Number(count) >= PERSONAL_VIEW_LIMIT) {
    throw badRequest('view_limit_reached', `You already have ${PERSONAL_VIEW_LIMIT} personal views on this ${place.kind}.`, { limit: PERSONAL_VIEW_LIMIT });
  }
}

const changeScope = (row: ViewRow) => ({ board: row.board_uuid, project: row.project_uuid });

/** A default view makes the container's previous default shared. */
async function demoteDefault(w: PlanWrite, place: Place, except: string | null): Promise<void> {
  const query = w.db('plan_views').where({ [column(place.kind)]: place.uuid, visibility: 'board_default' });
  if (except) query.whereNot({ uuid: except });
  for (const old of (await query) as ViewRow[]) {
    const demoted: ViewRow = { ...old, visibility: 'shared', version: Number(old.version) + 1, updated_at: w.now.toISOString() };
    await w.db('plan_views').where({ uuid: old.uuid }).update({ visibility: 'shared', version: demoted.version, updated_at: demoted.updated_at });
    await w.changes.record({ kind: 'view', uuid: old.uuid, change: 'updated', ...changeScope(old), fields: ['visibility'], snapshot: presentView(demoted) });
  }
}

export async function createView(w: PlanWrite, container: ViewContainer, input: CreateViewInput, ifMatch: string[]): Promise<ViewRow> {
  const place = await placeOf(w.db, w.actor, container);
  const visibility = input.visibility as ViewVisibility;
  assertMayHave(w.actor, place, visibility);
  // The container's stream, until the write ends: the list ETag is read and the view written under it, so of
  // concurrent creations sent with one list ETag exactly one finds it current (PostgreSQL let 9 of 20 through).
  await lockStreamOf(w, { board: container.kind === 'board' ? container.uuid : null });
  if (visibility === 'personal') await assertUnderLimit(w.db, w.actor, place, null);
  checkPrecondition(ifMatch, listEtag(await visibleViews(w.db, w.actor, container)));
  if (visibility === 'board_default') await demoteDefault(w, place, null);
  const row: ViewRow = {
    uuid: uuidv7(w.now.getTime()),
    organization_uuid: place.organizationUuid,
    board_uuid: container.kind === 'board' ? container.uuid : null,
    project_uuid: container.kind === 'project' ? container.uuid : null,
    owner_uuid: w.actor.user.uuid,
    name: input.name.trim(),
    visibility,
    filters: writeJson(input.filters ?? {}),
    sort: writeJson(sortList(input.sort)),
    view_mode: input.view_mode ?? null,
    group_by: input.group_by ?? null,
    version: 1,
    created_at: w.now.toISOString(),
    updated_at: w.now.toISOString(),
  };
  await w.db('plan_views').insert(row);
  if (visibility !== 'personal') await w.changes.record({ kind: 'view', uuid: row.uuid, change: 'created', ...changeScope(row), snapshot: presentView(row) });
  return row;
}

const sortList = (sort: string | string[] | undefined): string[] => (sort === undefined ? [] : Array.isArray(sort) ? sort : [sort]);

/** PUT (`replace`: absent filters and sort are emptied) or PATCH (only what the body names). */
export async function changeView(w: PlanWrite, uuid: string, input: UpdateViewInput, ifMatch: string[], replace: boolean): Promise<ViewRow> {
  const { row, place } = await viewOf(w.db, w.actor, uuid, w);
  const visibility = (input.visibility ?? row.visibility) as ViewVisibility;
  if (row.visibility !== 'personal') assertMayHave(w.actor, place, row.visibility);
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
  for (const field of ['view_mode', 'group_by'] as const) {
    const value = input[field] !== undefined ? input[field] : replace ? null : undefined;
    if (value !== undefined && value !== (row[field] ?? null)) changes[field] = value;
  }
  if (Object.keys(changes).length === 0) return row;

  if (visibility === 'board_default' && row.visibility !== 'board_default') await demoteDefault(w, place, row.uuid);
  const updated: ViewRow = { ...row, ...changes, version: Number(row.version) + 1, updated_at: w.now.toISOString() };
  const written = await w.db('plan_views').where({ uuid, version: row.version }).update({ ...changes, version: updated.version, updated_at: updated.updated_at });
  if (written === 0) throw preconditionFailed();
  await recordChange(w, row, updated, Object.keys(changes).filter((f) => f !== 'owner_uuid'));
  return updated;
}

/** What other people see change: a view entering the shared stream is created there, one leaving it deleted. */
async function recordChange(w: PlanWrite, before: ViewRow, after: ViewRow, fields: string[]): Promise<void> {
  const was = before.visibility !== 'personal';
  const is = after.visibility !== 'personal';
  if (!was && !is) return;
  const change = was && is ? 'updated' : is ? 'created' : 'deleted';
  await w.changes.record({ kind: 'view', uuid: after.uuid, change, ...changeScope(after), fields: change === 'updated' ? fields : [], snapshot: is ? presentView(after) : null });
}

export async function deleteView(w: PlanWrite, uuid: string, ifMatch: string[]) {
  const { row, place } = await viewOf(w.db, w.actor, uuid, w);
  if (row.visibility !== 'personal') assertMayHave(w.actor, place, row.visibility);
  // Checked when sent: the DailyBot client deletes without one.
  checkPrecondition(ifMatch, viewEtag(row), false);
  await w.db('plan_views').where({ uuid }).delete();
  if (row.visibility !== 'personal') await w.changes.record({ kind: 'view', uuid, change: 'deleted', ...changeScope(row), snapshot: null });
  return { deleted: { object_kind: 'view', uuid, name: row.name } };
}

/**
 * `PUT …/views/` with an array (the DailyBot client's save): the caller's personal views on the board or project
 * become exactly these, in one go. If-Match carries the list's ETag (428 without it, 412 when the list changed since),
 * so two saves never drop each other's views. Shared and default views are left as they are.
 */
export async function saveViews(w: PlanWrite, container: ViewContainer, items: SavedViewItem[], ifMatch: string[]): Promise<{ rows: ViewRow[]; etag: string }> {
  const place = await placeOf(w.db, w.actor, container);
  assertMayHave(w.actor, place, 'personal');
  checkPrecondition(ifMatch, listEtag(await visibleViews(w.db, w.actor, container)));
  if (items.length > PERSONAL_VIEW_LIMIT) {
    throw badRequest('view_limit_reached', `At most ${PERSONAL_VIEW_LIMIT} personal views on a ${place.kind}.`, { limit: PERSONAL_VIEW_LIMIT });
  }
  const mine: ViewRow[] = await w.db('plan_views').where({ [column(place.kind)]: place.uuid, visibility: 'personal', owner_uuid: w.actor.user.uuid });
  const byUuid = new Map(mine.map((row) => [row.uuid, row]));
  const kept = new Set<string>();
  for (const [index, item] of items.entries()) {
    if (item.uuid === undefined) continue;
    const uuid = item.uuid.toLowerCase();
    if (!byUuid.has(uuid) || kept.has(uuid)) throw invalidFilter(`${index}.uuid`, 'Not one of your personal views here (or named twice).');
    kept.add(uuid);
  }
  const now = w.now.toISOString();
  const gone = mine.filter((row) => !kept.has(row.uuid)).map((row) => row.uuid);
  if (gone.length) await w.db('plan_views').whereIn('uuid', gone).delete();
  for (const item of items) {
    const fields = {
      name: item.name.trim(), filters: writeJson(item.filters ?? {}), sort: writeJson(sortList(item.sort)), view_mode: item.view_mode ?? null, group_by: item.group_by ?? null,
    };
    const old = item.uuid === undefined ? undefined : byUuid.get(item.uuid.toLowerCase());
    if (old) {
      await w.db('plan_views').where({ uuid: old.uuid }).update({ ...fields, version: Number(old.version) + 1, updated_at: now });
    } else {
      await w.db('plan_views').insert({
        uuid: uuidv7(w.now.getTime()), organization_uuid: place.organizationUuid, board_uuid: container.kind === 'board' ? container.uuid : null,
        project_uuid: container.kind === 'project' ? container.uuid : null, owner_uuid: w.actor.user.uuid, visibility: 'personal', ...fields, version: 1, created_at: now, updated_at: now,
      });
    }
  }
  const rows = await visibleViews(w.db, w.actor, container);
  return { rows, etag: listEtag(rows) };
}
