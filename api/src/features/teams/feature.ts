import type { Feature } from '../../http/feature.ts';
import { teamRoutes } from './routes.ts';

/** Teams and their members (CONTRACT §3). */
export const teams: Feature = {
  name: 'teams',
  routers: (deps, mw) => [teamRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
