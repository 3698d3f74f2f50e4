import type { Feature } from '../../http/feature.ts';
import { kudosRoutes } from './routes.ts';
import { companyValueRoutes } from './values-routes.ts';

/** Kudos and company values (CONTRACT §7, §12): giving, boosts, lists, the wall of fame and the kudos settings. */
export const kudos: Feature = {
  name: 'kudos',
  routers: (deps, mw) => [kudosRoutes(deps, mw), companyValueRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
