import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { inboxRoutes, notificationCatalogRoutes } from './routes.ts';

const { str, uuid, nullableStr, nullableUuid, nullableDateTime, dateTime, person, times } = fields;

export const { operations, schemas } = planOpenApiPart(
  (plan: PlanRoutes) => {
    notificationCatalogRoutes(plan);
    inboxRoutes(plan);
  },
  {
    PlanNotificationKind: {
      type: 'object',
      properties: {
        key: str, name: str, description: str, object_type: str, channels: { type: 'array', items: { enum: ['inbox', 'email', 'chat'] } }, default_enabled: { type: 'boolean' },
        scope: { enum: ['personal', 'org'], description: 'personal: people choose whether they get it; org: only routes send it' },
      },
    },
    PlanRouteTest: {
      type: 'object',
      properties: {
        route: { type: 'string', format: 'uuid' }, channel: { type: 'string' }, text: { type: 'string' }, deliveries: { type: 'integer' },
        sent: { type: 'boolean', description: 'whether anything was handed to the outbox' },
        destination: { oneOf: [{ type: 'object', properties: { external_id: { type: 'string' }, name: { type: 'string' } } }, { type: 'null' }], description: 'the chat channel, named (null for e-mail); a dry run shows it as channel at its top' },
      },
    },
    PlanNotificationRoute: {
      type: 'object',
      properties: {
        uuid, id: uuid, name: { type: ['string', 'null'] }, kind: str, kinds: { type: 'array', items: str, description: 'the kind, as a list of one (the DailyBot client reads kinds)' }, enabled: { type: 'boolean' }, channel: { type: 'string', description: 'a chat channel\'s external_id, or "email"' },
        scope: { type: ['object', 'null'], properties: { boards: { type: 'array', items: uuid }, projects: { type: 'array', items: uuid } } },
        created_by: nullableUuid, ...times,
      },
    },
    PlanNotification: {
      type: 'object',
      properties: {
        uuid, id: uuid, kind: str, object_type: str, object_uuid: uuid, board: nullableUuid, project: nullableUuid, title: str, body: str,
        data: { type: 'object' }, actor: { oneOf: [person, { type: 'null' }] }, agent_name: nullableStr, is_read: { type: 'boolean' }, read_at: nullableDateTime, created_at: dateTime,
      },
    },
  },
);
