import type { Feature } from '../../http/feature.ts';
import { formResponseRoutes } from './responses-routes.ts';
import { formRoutes } from './routes.ts';

/** Forms (CONTRACT §7, §12): forms, their questions and owners, responses and their states. */
export const forms: Feature = {
  name: 'forms',
  routers: (deps, mw) => [formRoutes(deps, mw), formResponseRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
