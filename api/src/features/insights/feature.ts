import type { Feature } from '../../http/feature.ts';
import { insightsRoutes } from './routes.ts';

/** Insights of check-ins and teams (participation, streaks, mood, aggregated answers) and the answers' CSV export. */
export const insights: Feature = {
  name: 'insights',
  routers: (deps, mw) => [insightsRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
