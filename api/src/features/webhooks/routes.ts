import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, allow } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest } from '../../http/query.ts';
import { createSubscription, deleteSubscription, listSubscriptions, sendSample } from './service.ts';
import { presentSampleQueued, presentSubscription, presentSubscriptionDeleted } from './presenter.ts';
import { createSubscriptionSchema, deleteSubscriptionSchema, sampleSchema } from './schema.ts';
import type { CreateSubscriptionInput, DeleteSubscriptionInput, SampleInput } from './schema.ts';

/** Organization webhooks (CONTRACT §7), admins only: "configured in the organization settings". */
export function webhookRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  const policy = { allowPrivate: deps.config.allowPrivateWebhooks, resolve: deps.outbound.resolve };

  router.get('/v1/webhook-subscription/', authenticate(), rateLimit('reads'), allow('webhooks.manage'), async (ctx) => {
    const page = pageRequest(ctx);
    const { count, rows } = await listSubscriptions(deps.db, actorOf(ctx), page);
    ctx.body = pageEnvelope(ctx, page, count, rows.map((row) => presentSubscription(row)), deps.config.publicUrl);
  });

  router.post('/v1/webhook-subscription/', authenticate(), rateLimit('writes'), allow('webhooks.manage'), validateBody(createSubscriptionSchema), async (ctx) => {
    const input = ctx.state.body as CreateSubscriptionInput;
    const { row, signingSecret } = await createSubscription(deps.db, deps.secretBox, policy, actorOf(ctx), input, deps.clock.now());
    ctx.status = 201;
    ctx.body = presentSubscription(row, signingSecret);
  });

  router.delete('/v1/webhook-subscription/', authenticate(), rateLimit('writes'), allow('webhooks.manage'), validateBody(deleteSubscriptionSchema), async (ctx) => {
    const input = ctx.state.body as DeleteSubscriptionInput;
    await deleteSubscription(deps.db, actorOf(ctx), input.hook_id, deps.clock.now());
    ctx.body = presentSubscriptionDeleted(input.hook_id);
  });

  router.post('/v1/webhook-subscription/sample/', authenticate(), rateLimit('writes'), allow('webhooks.manage'), validateBody(sampleSchema), async (ctx) => {
    const input = ctx.state.body as SampleInput;
    const deliveries = await sendSample(deps.db, actorOf(ctx), input, deps.clock.now());
    deps.delivery.kick();
    ctx.status = 202;
    ctx.body = presentSampleQueued(input.event, deliveries);
  });

  return router;
}
