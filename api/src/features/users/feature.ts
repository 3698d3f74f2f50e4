import type { Feature } from '../../http/feature.ts';
import { userRoutes } from './routes.ts';

/** People of the organization (CONTRACT §3). */
export const users: Feature = {
  name: 'users',
  routers: (deps, mw) => [userRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
