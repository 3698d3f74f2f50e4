import type { Feature } from '../../http/feature.ts';
import { cliRoutes } from './routes.ts';

/** The command-line client's endpoints (spec "Command-line client endpoints", CONTRACT §8); sign-in is cli-auth, the assistant is assistant. */
export const cli: Feature = {
  name: 'cli',
  routers: (deps, mw) => [cliRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
