import type { Knex } from 'knex';
import type { Actor } from '../../../auth/credentials.ts';
import { actsAsPerson, assertPerson, can, canManagePlanContainer } from '../../../auth/policy.ts';
import type { Executor } from '../../../db/connection.ts';
import type { ViewRow, ViewVisibility } from '../../../db/tables.ts';
import { ApiError, forbidden, invalidFilter } from '../../../lib/errors.ts';
import { ifMatchHolds } from '../../../lib/etags.ts';
import { sha256Hex } from '../../../lib/secrets.ts';
import { memberRole, visibleBoard, visibleProject } from '../frame/access.ts';
import type { PlanWrite } from '../frame/context.ts';
import { lockStreamOf } from '../frame/locks.ts';

/**
 * Where a saved view lives and who may do what with it: a board's or a project's views (shared and default ones
 * are their managers'), or the workspace's own (neither board nor project: the DailyBot client's workspace views,
 * personal or shared, each shared one its owner's to change). A list's ETag covers what a save replaces.
 */
export type ViewContainer = { kind: 'board' | 'project'; uuid: string } | { kind: 'workspace' };

export interface Place {
  container: ViewContainer;
  organizationUuid: string;
  /** Manages the container's shared and default views: its managers and admins (the workspace: admins). */
  manager: boolean;
}

export const visibilityForbidden = () => forbidden('view_visibility_forbidden', 'Only a manager of this board (or an organization admin) can make, edit or delete shared and default views.');
const preconditionRequired = () =>
  new ApiError(428, 'precondition_required', 'Saved-view writes need If-Match with the ETag of your last read (GET the view, or the list for a new one).');
export const preconditionFailed = () => new ApiError(412, 'precondition_failed', 'The view changed since your last read: read it again and retry with its new ETag.');

/** A quoted, opaque entity tag. */
const tagOf = (text: string) => `"${sha256Hex(text).slice(0, 32)}"`;
export const viewEtag = (row: ViewRow) => tagOf(`view:${row.uuid}:${row.version}`);

/** The container a view row lives in. */
export const containerOf = (row: ViewRow): ViewContainer =>
  row.board_uuid ? { kind: 'board', uuid: row.board_uuid } : row.project_uuid ? { kind: 'project', uuid: row.project_uuid } : { kind: 'workspace' };

/** The rows of a container (of the caller's organization, for the workspace). */
export function inContainer(db: Executor, actor: Actor, container: ViewContainer): Knex.QueryBuilder {
  if (container.kind === 'board') return db('plan_views').where({ board_uuid: container.uuid });
  if (container.kind === 'project') return db('plan_views').where({ project_uuid: container.uuid });
  return db('plan_views').where({ organization_uuid: actor.organization.uuid }).whereNull('board_uuid').whereNull('project_uuid');
}

export async function placeOf(db: Executor, actor: Actor, container: ViewContainer): Promise<Place> {
  if (container.kind === 'workspace') return { container, organizationUuid: actor.organization.uuid, manager: can(actor, 'plan.manage_all') };
  const access = container.kind === 'board'
    ? await visibleBoard<{ organization_uuid: string; visibility: string }>(db, actor, container.uuid)
    : await visibleProject<{ organization_uuid: string; visibility: string }>(db, actor, container.uuid);
  const role = can(actor, 'plan.manage_all') ? null : (access.role ?? (await memberRole(db, container.kind, container.uuid, actor.user.uuid)));
  return { container, organizationUuid: access.row.organization_uuid, manager: canManagePlanContainer(actor, role) };
}

/** The views of a container the caller sees: shared and default ones, and their own personal ones. */
export async function visibleViews(db: Executor, actor: Actor, container: ViewContainer): Promise<ViewRow[]> {
  const query = inContainer(db, actor, container);
  if (actsAsPerson(actor)) query.andWhere((q) => q.whereNot({ visibility: 'personal' }).orWhere({ owner_uuid: actor.user.uuid }));
  else query.whereNot({ visibility: 'personal' });
  const rows: ViewRow[] = await query;
  const rank: Record<ViewVisibility, number> = { board_default: 0, shared: 1, personal: 2 };
  return rows.sort((a, b) => rank[a.visibility] - rank[b.visibility] || a.name.localeCompare(b.name) || a.uuid.localeCompare(b.uuid));
}

/**
 * The ETag of a container's views: those a save replaces or a creation adds to. A board's or project's covers every
 * view the caller sees; the workspace's the caller's own workspace views (another person's shared one may change
 * without staling it).
 */
export function listEtag(actor: Actor, container: ViewContainer, rows: ViewRow[]): string {
  const covered = container.kind === 'workspace' ? rows.filter((row) => row.owner_uuid === actor.user.uuid) : rows;
  return tagOf(`views:${covered.map((r) => `${r.uuid}:${r.version}`).sort().join(',')}`);
}

/**
 * The container's change stream (a board's; a project's and the workspace's: the organization's), locked until the
 * write ends, before anything else (docs/architecture.md, "the lock order"): the list ETag is read and the view
 * written under it, so of concurrent creations sent with one list ETag exactly one finds it current (PostgreSQL let
 * 9 of 20 through).
 */
export async function lockContainer(w: PlanWrite, container: ViewContainer): Promise<void> {
  await lockStreamOf(w, { board: container.kind === 'board' ? container.uuid : null });
}

/** `required`: 428 without If-Match; otherwise it is checked only when sent. */
export function checkPrecondition(ifMatch: string[], etag: string, required = true): void {
  if (ifMatch.length === 0) {
    if (required) throw preconditionRequired();
    return;
  }
  if (!ifMatchHolds(ifMatch, etag)) throw preconditionFailed();
}

/**
 * Who may give a view this visibility: a person for personal views (and for their own shared workspace views), a
 * manager for a board's or project's shared and default ones. The workspace has no default view.
 */
export function assertMayHave(actor: Actor, place: Place, visibility: ViewVisibility): void {
  if (place.container.kind === 'workspace' && visibility === 'board_default') throw invalidFilter('visibility', 'A workspace view is personal or shared.');
  if (visibility === 'personal' || place.container.kind === 'workspace') assertPerson(actor, 'Personal and workspace views belong to a person; agent and organization keys cannot have them.');
  else if (!place.manager) throw visibilityForbidden();
}

/** Who may change or delete a view that is not personal: a manager, and for a workspace view its owner too. */
export function assertMayChange(actor: Actor, place: Place, row: ViewRow): void {
  if (row.visibility === 'personal') return;
  if (place.container.kind === 'workspace' && row.owner_uuid === actor.user.uuid) return;
  if (!place.manager) throw visibilityForbidden();
}
