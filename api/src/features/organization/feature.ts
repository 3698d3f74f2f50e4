import type { Feature } from '../../http/feature.ts';
import { organizationRoutes } from './routes.ts';

/** The caller's organization, and its chat platform connection. */
export const organization: Feature = {
  name: 'organization',
  routers: (deps, mw) => [organizationRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
