import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, allow } from '../../http/auth.ts';
import { publicBase } from '../../http/forwarded.ts';
import { integrationStatus, sendTestPrompt } from './integrations-service.ts';
import { validateBody } from '../../http/validation.ts';
import { openConversation, reportChannels, sendMessage } from './service.ts';
import { presentConversation, presentMessageSent, presentReportChannels, presentTestPrompt } from './presenter.ts';
import { openConversationSchema, sendMessageSchema } from './schema.ts';
import type { OpenConversationInput, SendMessageInput } from './schema.ts';

export function chatRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();

  router.post('/v1/send-message/', authenticate(), rateLimit('messaging'), validateBody(sendMessageSchema), async (ctx) => {
    const input = ctx.state.body as SendMessageInput;
    const sent = await sendMessage(deps.db, actorOf(ctx), input, deps.clock.now());
    deps.delivery.kick();
    ctx.body = presentMessageSent(sent);
  });

  router.post('/v1/open-conversation/', authenticate(), rateLimit('messaging'), validateBody(openConversationSchema), async (ctx) => {
    const input = ctx.state.body as OpenConversationInput;
    ctx.body = presentConversation(await openConversation(deps.db, deps.secretBox, deps.outbound.http, deps.config, actorOf(ctx), input));
  });

  router.get('/v1/report-channels/', authenticate(), rateLimit('reads'), async (ctx) => {
    const channels = await reportChannels(deps.db, deps.secretBox, deps.outbound.http, deps.config, actorOf(ctx));
    ctx.body = presentReportChannels(channels);
  });

  router.get('/v1/integrations/', authenticate(), rateLimit('reads'), allow('organization.update'), async (ctx) => {
    ctx.body = await integrationStatus(deps.db, deps.secretBox, actorOf(ctx), publicBase(ctx, deps.config.publicUrl));
  });

  router.post('/v1/integrations/test-prompt/', authenticate(), rateLimit('messaging'), allow('organization.update'), async (ctx) => {
    const sent = await sendTestPrompt(deps.db, deps.config, actorOf(ctx), deps.clock.now());
    deps.delivery.kick();
    ctx.status = 202;
    ctx.body = presentTestPrompt(sent);
  });

  return router;
}
