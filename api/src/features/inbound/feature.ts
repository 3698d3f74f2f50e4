import type { Feature } from '../../http/feature.ts';
import { inboundRoutes } from './routes.ts';

/** POST /v1/inbound-email/: received e-mail from hosted mail providers. */
export const inbound: Feature = {
  name: 'inbound',
  routers: (deps, mw) => [inboundRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
