import type { PlanRoutes, ReadCall } from '../../../http/plan/registrar.ts';
import { chatAccess } from '../channels/service.ts';
import { NOTIFICATION_CATALOG } from './catalog.ts';
import { ROUTE_LIMIT, checkChannel, routeDestination, createRoute, deleteRoute, getRoute, listRouteDeliveries, listRoutes, sendRouteTest, updateRoute } from './routing.ts';
import { presentDelivery } from '../../deliveries/presenter.ts';
import { inboxSummary, listInbox, markAllRead, markNotification, unreadCount } from './inbox.ts';
import { presentNotification, presentRoute } from './presenter.ts';
import { channelOf, createRouteSchema, updateRouteSchema } from './schema.ts';

const KINDS = NOTIFICATION_CATALOG.map((kind) => kind.key);

const INBOX_QUERY = [
  { name: 'kind', description: 'one kind of the catalogue (type: the DailyBot client\'s name)' },
  { name: 'mentioned', description: 'true: only where you were mentioned; false: all but those' },
];
/** The inbox filters of the list and the unread count: `type` is the DailyBot client's name for `kind`. */
const inboxFilters = (call: ReadCall) => ({
  kind: call.query.oneOf('kind', KINDS) ?? call.query.oneOf('type', KINDS),
  mentioned: call.query.optionalFlag('mentioned'),
});

export function notificationCatalogRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: channels and notifications');
  r.list(
    {
      path: '/v1/plan/notifications/catalog/', summary: 'The notification kinds (items carry key and scope: personal or org); kinds: all of them at once', item: 'PlanNotificationKind',
      envelope: { kinds: { type: 'array', items: { $ref: '#/components/schemas/PlanNotificationKind' }, description: 'every kind, unpaged (where the DailyBot client reads them)' } },
    },
    async (call) => ({
      count: NOTIFICATION_CATALOG.length,
      results: NOTIFICATION_CATALOG.slice(call.page.offset, call.page.offset + call.page.limit),
      envelope: { kinds: NOTIFICATION_CATALOG },
    }),
  );

  const routes = '/v1/plan/notifications/routes/';
  // The DailyBot client's path for the same doors.
  const alias = (suffix = '') => ({ aliases: [`/v1/plan/notification-routes/${suffix}`] });
  r.list({ path: routes, ...alias(), summary: 'The organization\'s notification routes', item: 'PlanNotificationRoute' }, async (call) => {
    const { count, rows } = await listRoutes(call, call.page);
    return { count, results: rows.map(presentRoute) };
  });
  r.write(
    {
      method: 'post', path: routes, ...alias(), body: createRouteSchema, status: 201, response: 'PlanNotificationRoute',
      summary: `Send a kind to a chat channel (its external_id) or to "email" (at most ${ROUTE_LIMIT}: notification_routes_limit_reached)`,
      prepare: (call) => checkChannel(call, chatAccess(call.deps), channelOf(call.body.channel) ?? undefined, { email: true }),
    },
    async (call) => presentRoute(await createRoute(call, call.body)),
  );
  r.read({ path: `${routes}:route/`, ...alias(':route/'), summary: 'One notification route', response: 'PlanNotificationRoute' }, async (call) => presentRoute(await getRoute(call, call.params.route)));
  r.write(
    {
      method: 'patch', path: `${routes}:route/`, ...alias(':route/'), body: updateRouteSchema, response: 'PlanNotificationRoute', summary: 'Change a notification route',
      prepare: (call) => checkChannel(call, chatAccess(call.deps), channelOf(call.body.channel) ?? undefined, { email: true }),
    },
    async (call) => presentRoute(await updateRoute(call, call.params.route, call.body)),
  );
  r.write(
    {
      method: 'post', path: `${routes}:route/send-test/`, ...alias(':route/send-test/'), destructive: true, response: 'PlanRouteTest',
      summary: 'Send a test message through the route (an email route: to you); ?dry_run=true builds it and sends nothing (and names the channel at the top)',
      prepare: (call) => routeDestination(call, chatAccess(call.deps), call.params.route),
      preview: (result) => ({ channel: result.destination }),
    },
    async (call) => {
      const sent = await sendRouteTest(call, call.params.route);
      return { ...sent, sent: sent.deliveries > 0, destination: call.prepared };
    },
  );
  r.list({ path: `${routes}:route/deliveries/`, ...alias(':route/deliveries/'), summary: 'What the route sent lately, newest first', item: 'Delivery' }, async (call) => {
    const { count, rows } = await listRouteDeliveries(call, call.params.route, call.page);
    return { count, results: rows.map((row) => presentDelivery(row)) };
  });
  r.write({ method: 'delete', path: `${routes}:route/`, ...alias(':route/'), summary: 'Delete a notification route', status: 204 }, (call) => deleteRoute(call, call.params.route));
}

export function inboxRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: inbox');
  r.list(
    {
      path: '/v1/plan/inbox/', person: true, summary: 'Your notifications, newest first', item: 'PlanNotification',
      query: [...INBOX_QUERY, { name: 'unread', description: 'true: unread only; false: read only' }],
    },
    async (call) => {
      const { count, items } = await listInbox(call, { ...inboxFilters(call), unread: call.query.optionalFlag('unread') }, call.page);
      return { count, results: items.map(presentNotification) };
    },
  );
  r.read(
    { path: '/v1/plan/inbox/summary/', person: true, summary: 'How many notifications you have, and how many are unread', response: { type: 'object', properties: { unread: { type: 'integer' }, total: { type: 'integer' } } } },
    (call) => inboxSummary(call),
  );
  r.read(
    { path: '/v1/plan/inbox/unread-count/', person: true, query: INBOX_QUERY, summary: 'How many unread notifications you have (among those the filters keep)', response: { type: 'object', properties: { count: { type: 'integer' } } } },
    (call) => unreadCount(call, inboxFilters(call)),
  );
  r.write(
    { method: 'post', path: '/v1/plan/inbox/read-all/', person: true, summary: 'Mark every notification read (?kind= one kind)', query: [{ name: 'kind', description: 'only this kind' }], response: { type: 'object', properties: { marked: { type: 'integer' } } } },
    async (call) => ({ marked: await markAllRead(call, call.query.oneOf('kind', KINDS)) }),
  );
  for (const read of [true, false]) {
    r.write(
      {
        method: 'post', path: `/v1/plan/inbox/:notification/${read ? 'read' : 'unread'}/`, person: true, summary: `Mark a notification ${read ? 'read' : 'unread'} (unread_count: how many stay unread)`,
        response: { allOf: [{ $ref: '#/components/schemas/PlanNotification' }, { type: 'object', properties: { unread_count: { type: 'integer' } } }] },
      },
      async (call) => {
        const notification = presentNotification(await markNotification(call, call.params.notification, read));
        return { ...notification, unread_count: (await unreadCount(call, {})).count };
      },
    );
  }
}
