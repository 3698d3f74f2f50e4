import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { notificationCatalogRoutes } from './routes.ts';

const { str } = fields;

export const { operations, schemas } = planOpenApiPart(notificationCatalogRoutes, {
  PlanNotificationKind: {
    type: 'object',
    properties: { key: str, name: str, description: str, object_type: str, channels: { type: 'array', items: { enum: ['inbox', 'email', 'chat'] } }, default_enabled: { type: 'boolean' } },
  },
});
