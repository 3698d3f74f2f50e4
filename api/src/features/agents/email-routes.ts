import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { sendAgentEmail } from './email-service.ts';
import { presentAgentEmailSent } from './presenter.ts';
import { agentEmailSchema } from './schema.ts';
import type { AgentEmailInput } from './schema.ts';

/** Agent e-mail (spec "Agent e-mail", CONTRACT §5, §6); replies come back through the feature's inbound route. */
export function agentEmailRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();

  router.post('/v1/agent-email/send/', authenticate(), rateLimit('agent'), validateBody(agentEmailSchema), async (ctx) => {
    const actor = actorOf(ctx);
    const options = { hourlyLimit: deps.config.agentEmailHourlyLimit[actor.organization.plan], inboundDomain: deps.config.inboundEmailDomain };
    const sent = await sendAgentEmail(deps.db, actor, ctx.state.body as AgentEmailInput, options, deps.clock.now());
    deps.delivery.kick();
    ctx.status = 201;
    ctx.body = presentAgentEmailSent(sent);
  });

  return router;
}
