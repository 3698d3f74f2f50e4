import { planOpenApiPart } from '../../../http/plan/openapi.ts';
import { taskDetailRoutes } from './routes.ts';

export const { operations, schemas } = planOpenApiPart(taskDetailRoutes, {});
