import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { noBody, validateBody } from '../../http/validation.ts';
import { enforce } from '../../http/rate-limit.ts';
import { publicBase } from '../../http/forwarded.ts';
import { uuidParam } from '../../http/params.ts';
import { sessionOriginRefusal, setSessionCookie } from '../../http/session-cookie.ts';
import { acceptInvitation, inviteUser, revokeInvitation } from './service.ts';
import { presentAcceptance, presentInvitation } from './presenter.ts';
import { acceptInvitationSchema, inviteUserSchema } from './schema.ts';
import type { AcceptInvitationInput, InviteUserInput } from './schema.ts';

export function invitationRoutes(deps: Deps, { authenticate, rateLimit, clearsCredentialCache }: Middlewares): Router {
  const router = new Router();
  router.param('uuid', uuidParam);

  // 201 for a new invitation, 200 when it was resent to a pending address. The e-mail's link points at
  // PUBLIC_URL, or at the address this request reached (as pagination links do).
  router.post('/v1/invite-user/', authenticate(), rateLimit('invitations'), validateBody(inviteUserSchema), async (ctx) => {
    const input = ctx.state.body as InviteUserInput;
    const now = deps.clock.now();
    const result = await inviteUser(deps.db, actorOf(ctx), input, now, publicBase(ctx, deps.config.publicUrl));
    deps.delivery.kick();
    ctx.status = result.resent ? 200 : 201;
    ctx.body = presentInvitation(result, now);
  });

  // No credential: the token from the e-mail is the proof. Counted per client address in the strictest
  // (authentication) budget, so tokens cannot be guessed at speed. `session: true` (the web app) also sets the
  // session cookie, from the app's own pages only.
  router.post('/v1/invitations/accept/', validateBody(acceptInvitationSchema), async (ctx) => {
    const now = deps.clock.now();
    await enforce(ctx, deps.db, `authentication:invitation-accept:${ctx.ip}`, { policy: 'authentication', limit: deps.config.hourlyBudgets.authentication, seconds: 3600 }, now);
    const { token, session } = ctx.state.body as AcceptInvitationInput;
    if (session) {
      const refusal = sessionOriginRefusal(ctx, deps.config.publicUrl);
      if (refusal) throw refusal;
    }
    const acceptance = await acceptInvitation(deps.db, token, now, { session: session === true });
    await deps.credentialCache.invalidate();
    if (acceptance.session) setSessionCookie(ctx, acceptance.session.token, acceptance.session.expiresAt, now, deps.config.requireHttps);
    ctx.body = presentAcceptance(acceptance, now);
  });

  router.delete('/v1/invitations/:uuid/', authenticate(), rateLimit('writes'), noBody, clearsCredentialCache, async (ctx) => {
    await revokeInvitation(deps.db, actorOf(ctx), ctx.params.uuid, deps.clock.now());
    ctx.status = 204;
  });

  return router;
}
