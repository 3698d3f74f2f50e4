import type { Feature } from '../../http/feature.ts';
import { deliveryRoutes } from './routes.ts';

/** The outbox as admins see it: why something did not arrive, and sending it again. */
export const deliveries: Feature = {
  name: 'deliveries',
  routers: (deps, mw) => [deliveryRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
