import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { notificationCatalogRoutes } from './routes.ts';

/** Plan (beta): the catalogue of Plan notification kinds. */
export const planNotifications: Feature = {
  name: 'plan/notifications',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, notificationCatalogRoutes)],
  openapi: () => import('./openapi.ts'),
};
