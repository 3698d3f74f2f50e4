import type { Feature } from '../../http/feature.ts';
import { invitationRoutes } from './routes.ts';

/** Invitations: invite-user and accepting the e-mailed link. */
export const invitations: Feature = {
  name: 'invitations',
  routers: (deps, mw) => [invitationRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
