import type { Feature } from '../../http/feature.ts';
import { templateRoutes } from './routes.ts';

/** Built-in check-in templates. */
export const templates: Feature = {
  name: 'templates',
  routers: (deps, mw) => [templateRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
