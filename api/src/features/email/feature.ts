import type { Feature } from '../../http/feature.ts';
import { emailRoutes } from './routes.ts';

/** POST /v1/send-email/: e-mail from the caller, through the outbox. */
export const email: Feature = {
  name: 'email',
  routers: (deps, mw) => [emailRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
