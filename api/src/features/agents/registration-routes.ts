import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { ValidationFailed, notFound } from '../../lib/errors.ts';
import { enforce } from '../../http/rate-limit.ts';
import { clientAddress, publicBase } from '../../http/forwarded.ts';
import { validateBody } from '../../http/validation.ts';
import { claim, claimable, createChallenge, register } from './registration-service.ts';
import { claimPage, presentClaimLink } from './claim-page.ts';
import { queryText } from '../../http/query.ts';
import { presentChallenge, presentClaim, presentRegistration } from './presenter.ts';
import { claimSchema, registerSchema } from './schema.ts';
import type { ClaimInput, RegisterInput } from './schema.ts';

/**
 * Agent self-registration and claim (CONTRACT §6): answer 404 unless AGENT_SELF_REGISTRATION=true. The two
 * anonymous steps share the agent-scoped hourly budget per client address.
 */
export function agentRegistrationRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  const enabled = async (_ctx: Context, next: Next) => {
    if (!deps.config.agentSelfRegistration) throw notFound();
    await next();
  };
  const perAddress = async (ctx: Context, next: Next) => {
    const window = { policy: 'agent', limit: deps.config.hourlyBudgets.agent, seconds: 3600 };
    await enforce(ctx, deps.db, `agent-register:${clientAddress(ctx)}`, window, deps.clock.now());
    await next();
  };
  const baseUrl = (ctx: Context) => publicBase(ctx, deps.config.publicUrl);

  router.get('/v1/agent/register/challenge/', enabled, perAddress, async (ctx) => {
    ctx.body = presentChallenge(await createChallenge(deps.db, deps.clock.now()));
  });

  router.post('/v1/agent/register/', enabled, perAddress, validateBody(registerSchema), async (ctx) => {
    const registered = await register(deps.db, ctx.state.body as RegisterInput, { inboundDomain: deps.config.inboundEmailDomain }, deps.clock.now());
    ctx.status = 201;
    ctx.body = presentRegistration(registered, baseUrl(ctx));
  });

  // The claim_url handed out at registration: opened in a browser (a GET), it says what the link is and how to
  // claim (the claim is a POST by a signed-in person); HTML for a browser, JSON otherwise.
  router.get('/v1/agent/claim/', enabled, perAddress, async (ctx) => {
    const token = queryText(ctx, 'claim_token');
    if (!token) throw new ValidationFailed({ claim_token: ['This query parameter is required.'] });
    const link = { ...(await claimable(deps.db, token)), token: token.trim(), baseUrl: baseUrl(ctx) };
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    if (ctx.accepts('json', 'html') === 'html') {
      ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
      ctx.type = 'html';
      ctx.body = claimPage(link);
    } else {
      ctx.body = presentClaimLink(link);
    }
  });

  router.post('/v1/agent/claim/', enabled, authenticate(), rateLimit('agent'), validateBody(claimSchema), async (ctx) => {
    ctx.body = presentClaim(await claim(deps.db, actorOf(ctx), ctx.state.body as ClaimInput, deps.clock.now()));
    await deps.credentialCache.invalidate();
  });

  return router;
}
