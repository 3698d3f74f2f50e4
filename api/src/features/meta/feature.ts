import type { Feature } from '../../http/feature.ts';
import { metaRoutes } from './routes.ts';

/** Health, readiness, metrics, the OpenAPI document and its reference page, the changelog, platform status. */
export const meta: Feature = {
  name: 'meta',
  routers: (deps, mw) => [metaRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
