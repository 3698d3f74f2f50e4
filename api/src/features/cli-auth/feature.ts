import type { Feature } from '../../http/feature.ts';
import { cliAuthRoutes } from './routes.ts';
import { pruneSignInCodes } from './service.ts';

/** Command-line sign-in (spec "CLI Bearer token", CONTRACT §4): a one-time code by e-mail, Bearer tokens, status, logout. */
export const cliAuth: Feature = {
  name: 'cli-auth',
  routers: (deps, mw) => [cliAuthRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
  jobs: [{ name: 'prune sign-in codes', schedule: '17 * * * *', run: (deps) => pruneSignInCodes(deps.db, deps.clock.now()) }],
};
