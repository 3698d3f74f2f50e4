import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { enforce } from '../../http/rate-limit.ts';
import { acceptInvitation, inviteUser } from './service.ts';
import { presentAcceptance, presentInvitation } from './presenter.ts';
import { acceptInvitationSchema, inviteUserSchema } from './schema.ts';
import type { AcceptInvitationInput, InviteUserInput } from './schema.ts';

export function invitationRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  // 201 for a new invitation, 200 when it was resent to a pending address.
  router.post('/v1/invite-user/', authenticate(), rateLimit('invitations'), validateBody(inviteUserSchema), async (ctx) => {
    const input = ctx.state.body as InviteUserInput;
    const now = deps.clock.now();
    const result = await inviteUser(deps.db, actorOf(ctx), input, now, deps.config.publicUrl);
    ctx.status = result.resent ? 200 : 201;
    ctx.body = presentInvitation(result);
  });

  // No credential: the token from the e-mail is the proof. Counted per client address in the strictest
  // (authentication) budget, so tokens cannot be guessed at speed.
  router.post('/v1/invitations/accept/', validateBody(acceptInvitationSchema), async (ctx) => {
    const now = deps.clock.now();
    await enforce(ctx, deps.db, `authentication:invitation-accept:${ctx.ip}`, { policy: 'authentication', limit: deps.config.hourlyBudgets.authentication, seconds: 3600 }, now);
    const { token } = ctx.state.body as AcceptInvitationInput;
    const { user, organization } = await acceptInvitation(deps.db, token, now);
    await deps.credentialCache.invalidate();
    ctx.body = presentAcceptance({ user, organization });
  });

  return router;
}
