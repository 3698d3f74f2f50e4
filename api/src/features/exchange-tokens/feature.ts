import { pruneExchangeTokens } from '../../auth/exchange-tokens.ts';
import type { Feature } from '../../http/feature.ts';
import { exchangeTokenRoutes } from './routes.ts';

/** Exchange tokens (spec "Exchange token", CONTRACT §4): an admin acts for a member on kudos and check-in responses. */
export const exchangeTokens: Feature = {
  name: 'exchange-tokens',
  routers: (deps, mw) => [exchangeTokenRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
  jobs: [{ name: 'prune exchange tokens', schedule: '23 * * * *', run: (deps) => pruneExchangeTokens(deps.db, deps.clock.now()) }],
};
