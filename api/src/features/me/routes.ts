import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, requirePerson } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { presentMe, presentMeWithTimeOff } from './presenter.ts';
import { updateMe } from './service.ts';
import { updateMeSchema } from './schema.ts';
import type { UpdateMeInput } from './schema.ts';

export function meRoutes(deps: Deps, { authenticate, rateLimit, clearsCredentialCache }: Middlewares): Router {
  const router = new Router();
  router.get('/v1/me/', authenticate(), rateLimit('reads'), (ctx) => {
    ctx.body = presentMe(actorOf(ctx));
  });

  // The person's own settings; agent and organization keys act for no person (403 insufficient_scope).
  router.patch('/v1/me/', authenticate(), rateLimit('writes'), requirePerson, validateBody(updateMeSchema), clearsCredentialCache, async (ctx) => {
    const actor = actorOf(ctx);
    const { user, timeOff } = await updateMe(deps.db, actor, ctx.state.body as UpdateMeInput, deps.clock.now());
    ctx.body = presentMeWithTimeOff({ user, organization: actor.organization }, timeOff);
  });
  return router;
}
