import Router from '@koa/router';
import type { Deps } from '../../deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { inviteUser } from './service.ts';
import { presentInvitation } from './presenter.ts';
import { inviteUserSchema } from './schema.ts';
import type { InviteUserInput } from './schema.ts';

export function invitationRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  // 201 for a new invitation, 200 when it was resent to a pending address.
  router.post('/v1/invite-user/', authenticate(), rateLimit('invitations'), validateBody(inviteUserSchema), async (ctx) => {
    const input = ctx.state.body as InviteUserInput;
    const now = deps.clock.now();
    const result = await deps.db.transaction((trx) => inviteUser(trx, actorOf(ctx), input, now, deps.config.publicUrl));
    ctx.status = result.resent ? 200 : 201;
    ctx.body = presentInvitation(result);
  });
  return router;
}
