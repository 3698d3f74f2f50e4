import type { Feature } from '../../../http/feature.ts';
import { pruneIdempotencyKeys } from '../../../db/idempotency-keys.ts';

/** What every Plan resource shares and nothing serves: the hourly pruning of expired Idempotency-Key answers. */
export const planFrame: Feature = {
  name: 'plan/frame',
  routers: () => [],
  jobs: [{ name: 'prune-plan-idempotency-keys', schedule: '27 * * * *', run: (deps) => pruneIdempotencyKeys(deps.db, deps.clock.now()) }],
};
