import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { entitlementRoutes } from './routes.ts';

const { str } = fields;

export const { operations, schemas } = planOpenApiPart(entitlementRoutes, {
  PlanEntitlements: {
    type: 'object',
    properties: {
      plan: str, enabled: { type: 'boolean' }, read_only: { type: 'boolean' }, features: { type: 'object' },
      reason: { type: ['string', 'null'], description: 'Why Plan is off (plan_upgrade_required), null when it is on' },
      boards: { type: 'object', properties: { used: { type: 'integer' }, limit: { type: ['integer', 'null'] } } },
      labels: { type: 'object', properties: { enabled: { type: 'boolean' } } },
      limits: { type: 'object', description: 'Ceilings; null is unlimited' }, usage: { type: 'object' }, rate_limits: { type: 'object' },
      credential: { type: 'object', properties: { scopes: { type: 'array', items: str }, acts_as_person: { type: 'boolean' } } },
    },
  },
});
