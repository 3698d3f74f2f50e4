import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { channelRoutes } from './routes.ts';

const { str } = fields;

export const { operations, schemas } = planOpenApiPart(channelRoutes, {
  PlanChannel: { type: 'object', properties: { external_id: str, id: str, name: str, type: { enum: ['public', 'private', 'personal'] }, platform: str } },
});
