import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, requirePerson } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { notFound } from '../../lib/errors.ts';
import { confirmLink, linkedAccountsOf } from '../chat-platform/linked-accounts.ts';
import { linkChatAccountSchema } from './schema.ts';
import type { LinkChatAccountInput } from './schema.ts';
import { presentChatAccount, presentChatAccounts } from './presenter.ts';

/**
 * The person's own chat accounts, linked by themselves where the platform's bot cannot find them by e-mail
 * (Discord): `/rollcall link` in Discord gives a one-time link to the web app, which confirms it here for the
 * signed-in person. A token that is unknown, used, expired or of another organization is 404, one answer.
 */
export function chatAccountRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.get('/v1/me/chat-accounts/', authenticate(), rateLimit('reads'), requirePerson, async (ctx) => {
    ctx.body = presentChatAccounts(await linkedAccountsOf(deps.db, actorOf(ctx).user.uuid));
  });
  router.post('/v1/me/chat-accounts/', authenticate(), rateLimit('writes'), requirePerson, validateBody(linkChatAccountSchema), async (ctx) => {
    const { token } = ctx.state.body as LinkChatAccountInput;
    const { user } = actorOf(ctx);
    const linked = await confirmLink(deps.db, user, token, deps.clock.now());
    if (!linked) throw notFound();
    ctx.status = 201;
    ctx.body = presentChatAccount(linked);
  });
  return router;
}
