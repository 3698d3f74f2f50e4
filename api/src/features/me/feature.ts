import type { Feature } from '../../http/feature.ts';
import { meRoutes } from './routes.ts';

/** GET /v1/me/: who the credential acts as. */
export const me: Feature = {
  name: 'me',
  routers: (deps, mw) => [meRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
