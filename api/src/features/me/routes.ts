import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { presentMe } from './presenter.ts';

export function meRoutes(_deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.get('/v1/me/', authenticate(), rateLimit('reads'), (ctx) => {
    ctx.body = presentMe(actorOf(ctx));
  });
  return router;
}
