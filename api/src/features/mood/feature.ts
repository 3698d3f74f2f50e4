import type { Feature } from '../../http/feature.ts';
import { moodRoutes } from './routes.ts';

/** Mood tracking (CONTRACT §7). */
export const mood: Feature = {
  name: 'mood',
  routers: (deps, mw) => [moodRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
