import type { Actor } from '../../../auth/credentials.ts';
import type { Executor } from '../../../db/connection.ts';
import type { DeliveryRow, NotificationRouteRow } from '../../../db/tables.ts';
import { enqueueEmail } from '../../../outbox/deliveries.ts';
import { platformName } from '../../chat-platform/connection.ts';
import { enqueueChatPost } from '../../chat-platform/enqueue.ts';
import { pageOf } from '../frame/lists.ts';
import { ValidationFailed, badRequest, notFound } from '../../../lib/errors.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { bool, readJson, writeJson } from '../../../lib/json.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { lockOrganization } from '../../../outbox/plan-changes.ts';
import { channelLabel, listChannels } from '../channels/service.ts';
import type { ChatAccess } from '../channels/service.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { notificationKind } from './catalog.ts';
import { presentRoute } from './presenter.ts';
import { channelOf, scopeOf } from './schema.ts';
import type { ScopeInput } from './schema.ts';
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

/**
 * The scope as sent (either shape: scopeOf), normalized; 400 route_scope_not_org_visible listing every uuid that is
 * not a board or project everyone in the organization sees.
 */
export async function checkScope(db: Executor, actor: Actor, input: ScopeInput): Promise<RouteScope | null> {
  const scope = scopeOf(input);
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
  const kind = input.kind ?? input.kinds?.[0];
  const channel = channelOf(input.channel);
  const missing = { ...(kind ? {} : { kind: ['This field is required.'] }), ...(channel ? {} : { channel: ['This field is required.'] }) };
  if (!kind || !channel) throw new ValidationFailed(missing);
  checkKind(kind, channel);
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
    kind,
    channel,
    scope: scope ? writeJson(scope) : null,
    name: input.name ?? null,
    enabled: input.enabled ?? true,
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
  const kind = input.kind ?? input.kinds?.[0];
  const channel = input.channel === undefined ? undefined : channelOf(input.channel)!;
  if (kind !== undefined && kind !== route.kind) changes.kind = kind;
  if (channel !== undefined && channel !== route.channel) changes.channel = channel;
  if (input.name !== undefined && input.name !== (route.name ?? null)) changes.name = input.name;
  if (input.enabled !== undefined && input.enabled !== bool(route.enabled ?? true)) changes.enabled = input.enabled;
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

/**
 * A test message through a route (`send-test/`): to the route's chat channel, or, for an `email` route, to the
 * caller's own address. 400 platform_not_connected for a chat route without a platform. A dry run builds it and
 * sends nothing.
 */
/** Where a route sends, as the DailyBot client shows it: its chat channel `{external_id, name}`, or null for e-mail. Asks the platform. */
export async function routeDestination(r: PlanRead, chat: ChatAccess, uuid: string): Promise<{ external_id: string; name: string } | null> {
  const route = await routeOf(r.db, r.actor, uuid);
  return route.channel === EMAIL_CHANNEL ? null : channelLabel(r, chat, route.channel);
}

export async function sendRouteTest(w: PlanWrite, uuid: string): Promise<{ route: string; channel: string; text: string; deliveries: number }> {
  const route = await routeOf(w.db, w.actor, uuid);
  const kind = notificationKind(route.kind);
  const text = `Test of the notification route for "${kind?.name ?? route.kind}" (sent by hand; nothing happened).`;
  let deliveries = 0;
  if (route.channel === EMAIL_CHANNEL) {
    const me = await w.db('users').where({ uuid: w.actor.user.uuid }).first('email');
    await enqueueEmail(w.db, { organizationUuid: route.organization_uuid, kind: `plan.${route.kind}`, message: { to: [me!.email], subject: `[Rollcall] ${kind?.name ?? route.kind}: test`, text } }, w.now);
    deliveries = 1;
  } else {
    const platform = await platformName(w.db, route.organization_uuid);
    if (!platform) throw badRequest('platform_not_connected', 'No chat platform is connected. Connect Slack, Microsoft Teams, Discord or Google Chat in PATCH /v1/organization/ (platform).');
    deliveries = await enqueueChatPost(w.db, { organizationUuid: route.organization_uuid, platform, text, channels: [route.channel], users: [], kind: `plan.${route.kind}`, subjectUuid: route.uuid }, w.now);
  }
  return { route: route.uuid, channel: route.channel, text, deliveries };
}

/**
 * What a route sent lately: the organization's deliveries of the route's kind, by e-mail for an `email` route or
 * to chat otherwise, since the route exists, newest first.
 */
export async function listRouteDeliveries(r: PlanRead, uuid: string, page: PageRequest): Promise<{ count: number; rows: DeliveryRow[] }> {
  const route = await routeOf(r.db, r.actor, uuid);
  return pageOf<DeliveryRow>(
    () => {
      const query = r.db('deliveries').where({ organization_uuid: route.organization_uuid, kind: `plan.${route.kind}` }).andWhere('created_at', '>=', route.created_at);
      return route.channel === EMAIL_CHANNEL ? query.andWhere({ channel: 'email' }) : query.andWhereNot({ channel: 'email' });
    },
    page,
    (query) => query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'uuid', order: 'desc' }]),
  );
}
