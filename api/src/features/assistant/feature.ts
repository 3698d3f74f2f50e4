import type { Feature } from '../../http/feature.ts';
import { assistantRoutes } from './routes.ts';
import { pruneSessions } from './sessions.ts';

/**
 * The command-line assistant (POST /v1/cli/chat/completions/, CONTRACT §8): the operator's language model with
 * the caller's own data as context, or the built-in assistant; sessions keep the earlier turns.
 */
export const assistant: Feature = {
  name: 'assistant',
  routers: (deps, mw) => [assistantRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
  jobs: [{ name: 'prune assistant sessions', schedule: '41 3 * * *', run: (deps) => pruneSessions(deps.db, deps.clock.now()) }],
};
