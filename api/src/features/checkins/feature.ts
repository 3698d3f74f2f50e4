import type { Feature } from '../../http/feature.ts';
import { checkinBlockerRoutes } from './blockers-routes.ts';
import { checkinQuestionRoutes } from './questions-routes.ts';
import { checkinResponseRoutes } from './responses-routes.ts';
import { checkinRoutes } from './routes.ts';

/** Check-ins (CONTRACT §7, §12), also under /v1/followups/: set-up, questions, responses and their history, blockers. */
export const checkins: Feature = {
  name: 'checkins',
  routers: (deps, mw) => [checkinRoutes(deps, mw), checkinQuestionRoutes(deps, mw), checkinResponseRoutes(deps, mw), checkinBlockerRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
