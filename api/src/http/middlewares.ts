import type { Deps } from './deps.ts';
import { makeAuthenticate, makeClearsCredentialCache } from './auth.ts';
import { makeFreePlanDailyCap } from './daily-cap.ts';
import { makeRateLimit } from './rate-limit.ts';

/** The per-app middleware factories every feature's routes use; built once from the app's dependencies. */
export function makeMiddlewares(deps: Deps) {
  return {
    authenticate: makeAuthenticate(deps),
    rateLimit: makeRateLimit(deps),
    clearsCredentialCache: makeClearsCredentialCache(deps),
    freePlanDailyCap: makeFreePlanDailyCap(deps),
  };
}

export type Middlewares = ReturnType<typeof makeMiddlewares>;
