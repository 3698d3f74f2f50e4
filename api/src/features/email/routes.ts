import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { FREE_PLAN_SEND_EMAIL_DAILY_CAP, sendEmail } from './service.ts';
import { presentEmailQueued } from './presenter.ts';
import { sendEmailSchema } from './schema.ts';
import type { SendEmailInput } from './schema.ts';

export function emailRoutes(deps: Deps, { authenticate, rateLimit, freePlanDailyCap }: Middlewares): Router {
  const router = new Router();

  router.post(
    '/v1/send-email/',
    authenticate(),
    rateLimit('email'),
    validateBody(sendEmailSchema),
    freePlanDailyCap('send-email', FREE_PLAN_SEND_EMAIL_DAILY_CAP, { credential: 'bearer' }),
    async (ctx) => {
      const sent = await sendEmail(deps.db, actorOf(ctx), ctx.state.body as SendEmailInput, deps.clock.now());
      deps.delivery.kick();
      ctx.status = 201;
      ctx.body = presentEmailQueued(sent);
    },
  );

  return router;
}
