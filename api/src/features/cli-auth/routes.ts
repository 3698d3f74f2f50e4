import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { revokeAllCliTokens, revokeCliToken } from '../../auth/tokens.ts';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { authenticationWindow, enforceEach } from '../../http/rate-limit.ts';
import { noBody, validateBody } from '../../http/validation.ts';
import { sha256Hex } from '../../lib/secrets.ts';
import { clearSessionCookie, setSessionCookie } from '../../http/session-cookie.ts';
import { presentAuthStatus, presentCodeRequested, presentSession, presentSignedOut, presentSignedOutEverywhere, presentVerification } from './presenter.ts';
import { requestCode, verifyCode } from './service.ts';
import type { VerifyResult } from './service.ts';
import { requestCodeSchema, verifyCodeSchema } from './schema.ts';
import type { RequestCodeInput, VerifyCodeInput } from './schema.ts';

/**
 * Command-line sign-in (CONTRACT §4): a code by e-mail, then a 30-day Bearer token. The two anonymous calls count
 * against the `authentication` budget per client address (before the body is read, so junk counts too) and per
 * e-mail address (CONTRACT §5).
 */
export function cliAuthRoutes(deps: Deps, { authenticate, rateLimit, clearsCredentialCache }: Middlewares): Router {
  const router = new Router();
  const byAddress = async (ctx: Context, next: Next) => {
    await enforceEach(ctx, deps.db, [`authentication:address:${ctx.ip}`], authenticationWindow(deps), deps.clock.now());
    await next();
  };
  const byEmail = (email: string) => `authentication:email:${sha256Hex(email.trim().toLowerCase())}`;
  const site = deps.config.publicUrl ? ` at ${deps.config.publicUrl}` : '';
  // An invited person's first sign-in accepted their invitation: a write to users, which the cache must see.
  const forgetCredentialsIfJoined = async (result: VerifyResult) => {
    if (result.kind === 'signed_in' && result.candidate.invitation) await deps.credentialCache.invalidate();
  };

  router.post('/v1/cli/auth/request-code/', byAddress, validateBody(requestCodeSchema), async (ctx) => {
    const input = ctx.state.body as RequestCodeInput;
    const now = deps.clock.now();
    await enforceEach(ctx, deps.db, [byEmail(input.email)], authenticationWindow(deps), now);
    await requestCode(deps.db, deps.secretBox, input, site, now);
    deps.delivery.kick();
    ctx.body = presentCodeRequested();
  });

  router.post('/v1/cli/auth/verify-code/', byAddress, validateBody(verifyCodeSchema), async (ctx) => {
    const input = ctx.state.body as VerifyCodeInput;
    const now = deps.clock.now();
    await enforceEach(ctx, deps.db, [byEmail(input.email)], authenticationWindow(deps), now);
    const result = await verifyCode(deps.db, deps.secretBox, input, now);
    await forgetCredentialsIfJoined(result);
    ctx.body = presentVerification(result);
  });

  // The web app's sign-in: the same code, the same budgets and the same token as verify-code, but the token goes
  // into an HttpOnly cookie instead of the body (http/session-cookie.ts), so no script of the page can read it.
  router.post('/v1/cli/auth/session/', byAddress, validateBody(verifyCodeSchema), async (ctx) => {
    const input = ctx.state.body as VerifyCodeInput;
    const now = deps.clock.now();
    await enforceEach(ctx, deps.db, [byEmail(input.email)], authenticationWindow(deps), now);
    const result = await verifyCode(deps.db, deps.secretBox, input, now);
    await forgetCredentialsIfJoined(result);
    if (result.kind === 'signed_in') setSessionCookie(ctx, result.token, result.expiresAt, now, deps.config.requireHttps);
    ctx.body = presentSession(result);
  });

  router.get('/v1/cli/auth/status/', authenticate(), rateLimit('reads'), (ctx) => {
    ctx.body = presentAuthStatus(actorOf(ctx));
  });

  // CLI tokens only (the method matrix); the resolved-credential cache forgets it at once.
  router.post('/v1/cli/auth/logout/', authenticate(), rateLimit('authentication'), noBody, clearsCredentialCache, async (ctx) => {
    await revokeCliToken(deps.db, actorOf(ctx).credential.uuid, deps.clock.now());
    clearSessionCookie(ctx, deps.config.requireHttps);
    ctx.body = presentSignedOut();
  });

  router.post('/v1/cli/auth/logout-everywhere/', authenticate(), rateLimit('authentication'), noBody, clearsCredentialCache, async (ctx) => {
    const revoked = await revokeAllCliTokens(deps.db, actorOf(ctx).user.uuid, deps.clock.now());
    clearSessionCookie(ctx, deps.config.requireHttps);
    ctx.body = presentSignedOutEverywhere(revoked);
  });

  return router;
}
