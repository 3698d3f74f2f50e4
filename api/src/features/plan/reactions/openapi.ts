import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { reactionRoutes } from './routes.ts';

const { str, person } = fields;

export const { operations, schemas } = planOpenApiPart(reactionRoutes, {
  PlanReaction: { type: 'object', properties: { emoji: str, count: { type: 'integer' }, users: { type: 'array', items: person }, reacted: { type: 'boolean', description: 'you reacted with it' } } },
});
