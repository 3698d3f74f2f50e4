import type { Actor } from '../../../auth/credentials.ts';
import type { Executor } from '../../../db/connection.ts';
import type { NotificationRouteRow } from '../../../db/tables.ts';
import { ValidationFailed, badRequest, notFound } from '../../../lib/errors.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { readJson, writeJson } from '../../../lib/json.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { lockOrganization } from '../../../outbox/plan-changes.ts';
import { listChannels } from '../channels/service.ts';
import type { ChatAccess } from '../channels/service.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { notificationKind } from './catalog.ts';
import { presentRoute } from './presenter.ts';
import type { CreateRouteInput, UpdateRouteInput } from './schema.ts';

/**
 * Notification routes: the organization's rules sending a kind of notification to a chat channel (a post in the
 * channel for each one, about boards and projects everyone in the organization sees) or to `email` (each
 * recipient also gets it by e-mail). At most 10 per organization. A route's scope may name only boards and
 * projects everyone sees (route_scope_not_org_visible): what is posted to a channel is read by all its members.
 */
export const ROUTE_LIMIT = 10;
/** The channel value that sends a kind by e-mail to the people it is for. */
export const EMAIL_CHANNEL = 'email';

export interface RouteScope {
  boards?: string[];
  projects?: string[];
}

/**
 * A chat channel the organization's platform has (GET /v1/plan/channels/ lists them by external_id), else 400
 * channel_not_found (extra.parameter "channel"); 400 platform_not_connected with no platform. Asks the platform,
 * so it runs before the write's transaction opens (the route's prepare).
 */
export async function checkChannel(r: PlanRead, chat: ChatAccess, channel: string | undefined, options: { email: boolean }): Promise<void> {
  if (channel === undefined || (options.email && channel === EMAIL_CHANNEL)) return;
  const channels = await listChannels(r, chat, undefined);
  if (!channels.some((c) => c.external_id === channel)) {
    throw badRequest('channel_not_found', `No channel "${channel.slice(0, 200)}" on the connected chat platform; GET /v1/plan/channels/ lists them (external_id).`, { parameter: 'channel' });
  }
}

/** The scope, normalized; 400 route_scope_not_org_visible listing every uuid that is not a board or project everyone in the organization sees. */
export async function checkScope(db: Executor, actor: Actor, scope: RouteScope | null | undefined): Promise<RouteScope | null> {
  if (!scope) return null;
  const boards = [...new Set((scope.boards ?? []).map((u) => u.toLowerCase()))];
  const projects = [...new Set((scope.projects ?? []).map((u) => u.toLowerCase()))];
  const orgVisible = async (table: 'plan_boards' | 'plan_projects', uuids: string[]) =>
    new Set(uuids.length ? (await db(table).whereIn('uuid', uuids).where({ organization_uuid: actor.organization.uuid, visibility: 'org' }).select('uuid')).map((r: { uuid: string }) => r.uuid) : []);
  const [okBoards, okProjects] = [await orgVisible('plan_boards', boards), await orgVisible('plan_projects', projects)];
  const refused = [...boards.filter((u) => !okBoards.has(u)), ...projects.filter((u) => !okProjects.has(u))];
  if (refused.length) {
    throw badRequest('route_scope_not_org_visible', 'A scope names only boards and projects everyone in the organization sees (not members-only ones).', { uuids: refused });
  }
  return { boards, projects };
}

/** 400 unknown_notification_kind (extra.parameter "kind"), or a field error when the kind never goes where the route sends it. */
function checkKind(kind: string, channel: string): void {
  const known = notificationKind(kind);
  if (!known) throw badRequest('unknown_notification_kind', `"${kind.slice(0, 64)}" is not a notification kind; GET /v1/plan/notifications/catalog/ lists them.`, { parameter: 'kind' });
  const via = channel === EMAIL_CHANNEL ? 'email' : 'chat';
  if (!known.channels.includes(via)) throw new ValidationFailed({ kind: [`${kind} is not delivered by ${via === 'email' ? 'e-mail' : 'chat'}.`] });
}

export async function listRoutes(r: PlanRead, page: PageRequest): Promise<{ count: number; rows: NotificationRouteRow[] }> {
  const rows: NotificationRouteRow[] = await r.db('plan_notification_routes').where({ organization_uuid: r.actor.organization.uuid }).orderBy([{ column: 'created_at' }, { column: 'uuid' }]);
  return { count: rows.length, rows: rows.slice(page.offset, page.offset + page.limit) };
}

async function routeOf(db: Executor, actor: Actor, uuid: string): Promise<NotificationRouteRow> {
  const row: NotificationRouteRow | undefined = await db('plan_notification_routes').where({ uuid }).first();
  if (!row || row.organization_uuid !== actor.organization.uuid) throw notFound();
  return row;
}

export const getRoute = (r: PlanRead, uuid: string) => routeOf(r.db, r.actor, uuid);

const record = (w: PlanWrite, row: NotificationRouteRow, change: 'created' | 'updated', fields: string[] = []) =>
  w.changes.record({ kind: 'notification_route', uuid: row.uuid, change, board: null, fields, snapshot: presentRoute(row) });

/** The channel was checked by `checkChannel` before the transaction opened. */
export async function createRoute(w: PlanWrite, input: CreateRouteInput): Promise<NotificationRouteRow> {
  checkKind(input.kind, input.channel);
  const scope = await checkScope(w.db, w.actor, input.scope);
  // Serializes creations in the organization, so two at once cannot make an eleventh.
  await lockOrganization(w.db, w.actor.organization.uuid, w.now);
  const [{ count }] = await w.db('plan_notification_routes').where({ organization_uuid: w.actor.organization.uuid }).count({ count: '*' });
  if (Number(count) >= ROUTE_LIMIT) {
    throw badRequest('notification_routes_limit_reached', `This organization already has ${ROUTE_LIMIT} notification routes.`, { limit: ROUTE_LIMIT });
  }
  const row: NotificationRouteRow = {
    uuid: uuidv7(w.now.getTime()),
    organization_uuid: w.actor.organization.uuid,
    kind: input.kind,
    channel: input.channel,
    scope: scope ? writeJson(scope) : null,
    created_by_uuid: w.actor.user.uuid,
    created_at: w.now.toISOString(),
    updated_at: w.now.toISOString(),
  };
  await w.db('plan_notification_routes').insert(row);
  await record(w, row, 'created');
  return row;
}

export async function updateRoute(w: PlanWrite, uuid: string, input: UpdateRouteInput): Promise<NotificationRouteRow> {
  const route = await routeOf(w.db, w.actor, uuid);
  const changes: Partial<NotificationRouteRow> = {};
  if (input.kind !== undefined && input.kind !== route.kind) changes.kind = input.kind;
  if (input.channel !== undefined && input.channel !== route.channel) changes.channel = input.channel;
  checkKind(changes.kind ?? route.kind, changes.channel ?? route.channel);
  if (input.scope !== undefined) {
    const scope = await checkScope(w.db, w.actor, input.scope);
    const json = scope ? writeJson(scope) : null;
    if (json !== route.scope) changes.scope = json;
  }
  if (Object.keys(changes).length === 0) return route;
  const updated = { ...route, ...changes, updated_at: w.now.toISOString() };
  await w.db('plan_notification_routes').where({ uuid }).update({ ...changes, updated_at: updated.updated_at });
  await record(w, updated, 'updated', Object.keys(changes));
  return updated;
}

export async function deleteRoute(w: PlanWrite, uuid: string) {
  const route = await routeOf(w.db, w.actor, uuid);
  await w.db('plan_notification_routes').where({ uuid }).delete();
  await w.changes.record({ kind: 'notification_route', uuid, change: 'deleted', board: null, snapshot: null });
  return { deleted: { object_kind: 'notification_route', uuid, kind: route.kind, channel: route.channel } };
}

export const routeScope = (row: NotificationRouteRow): RouteScope | null => readJson<RouteScope | null>(row.scope, null);
