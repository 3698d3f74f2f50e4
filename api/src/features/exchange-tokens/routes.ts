import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, allow } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { presentExchangeToken } from './presenter.ts';
import { exchangeToken } from './service.ts';
import { exchangeTokenSchema } from './schema.ts';
import type { ExchangeTokenInput } from './schema.ts';

/** POST /v1/exchange-token/: admins, in the authentication budget (CONTRACT §5: token exchange). Presenting it is http/auth.ts's. */
export function exchangeTokenRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.post('/v1/exchange-token/', authenticate(), rateLimit('authentication'), allow('exchange_tokens.issue'), validateBody(exchangeTokenSchema), async (ctx) => {
    const issued = await exchangeToken(deps.db, actorOf(ctx), ctx.state.body as ExchangeTokenInput, deps.clock.now());
    ctx.status = 201;
    ctx.body = presentExchangeToken(issued);
  });
  return router;
}
