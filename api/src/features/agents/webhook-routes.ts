import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { registerWebhook, unregisterWebhook } from './webhook-service.ts';
import { presentWebhookRegistered, presentWebhookRemoved } from './presenter.ts';
import { webhookDeleteSchema, webhookSchema } from './schema.ts';
import type { WebhookDeleteInput, WebhookInput } from './schema.ts';

/** Agent webhook (CONTRACT §6, §10): new messages are pushed through the delivery outbox, delivered on 2xx. */
export function agentWebhookRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();

  router.post('/v1/agent-webhook/', authenticate(), rateLimit('agent'), validateBody(webhookSchema), async (ctx) => {
    const policy = { allowPrivate: deps.config.allowPrivateWebhooks, resolve: deps.outbound.resolve };
    ctx.status = 201;
    ctx.body = presentWebhookRegistered(await registerWebhook(deps.db, deps.secretBox, policy, actorOf(ctx), ctx.state.body as WebhookInput, deps.clock.now()));
  });

  router.delete('/v1/agent-webhook/', authenticate(), rateLimit('agent'), validateBody(webhookDeleteSchema), async (ctx) => {
    ctx.body = presentWebhookRemoved(await unregisterWebhook(deps.db, actorOf(ctx), ctx.state.body as WebhookDeleteInput, deps.clock.now()));
  });

  return router;
}
