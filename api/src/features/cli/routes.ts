import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, requirePerson } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { VERSION } from '../../lib/version.ts';
import { CHANGELOG } from '../meta/changelog.ts';
import { presentManifest, presentPendingCheckins, presentStandupUpdate } from './presenter.ts';
import { pendingCheckins, postStandupUpdate } from './service.ts';
import { standupUpdateSchema } from './schema.ts';
import type { StandupUpdateInput } from './schema.ts';

/** The command-line client's endpoints (CONTRACT §8): the update manifest, a stand-up update, pending check-ins. */
export function cliRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();

  router.get('/v1/cli/updates/', authenticate(), rateLimit('reads'), (ctx) => {
    ctx.body = presentManifest(VERSION, deps.config.cliDownloadUrl, CHANGELOG[0]);
  });

  router.post('/v1/cli/updates/', authenticate(), rateLimit('writes'), requirePerson, validateBody(standupUpdateSchema), async (ctx) => {
    const attached = await postStandupUpdate(deps.db, actorOf(ctx), ctx.state.body as StandupUpdateInput, deps.clock.now());
    deps.delivery.kick();
    ctx.body = presentStandupUpdate(attached);
  });

  router.get('/v1/cli/status/', authenticate(), rateLimit('reads'), requirePerson, async (ctx) => {
    ctx.body = presentPendingCheckins(await pendingCheckins(deps.db, actorOf(ctx), deps.clock.now()));
  });

  return router;
}
