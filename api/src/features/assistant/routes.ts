import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, requirePerson } from '../../http/auth.ts';
import { enforce } from '../../http/rate-limit.ts';
import { validateBody } from '../../http/validation.ts';
import { presentChatAnswer } from './presenter.ts';
import { chat } from './service.ts';
import { chatSchema } from './schema.ts';
import type { ChatInput } from './schema.ts';

/** CONTRACT §8: 30 questions per minute per credential, besides the hourly agent-scoped budget. */
export const CHAT_PER_MINUTE = 30;

export function assistantRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  const { baseUrl, apiKey, model } = deps.config.llm;
  const llm = baseUrl ? { baseUrl, apiKey, model, http: deps.outbound.llm } : null;

  router.post('/v1/cli/chat/completions/', authenticate(), rateLimit('agent'), requirePerson, async (ctx, next) => {
    const now = deps.clock.now();
    await enforce(ctx, deps.db, `chat:${actorOf(ctx).credential.uuid}`, { policy: 'chat', limit: CHAT_PER_MINUTE, seconds: 60 }, now);
    await next();
  }, validateBody(chatSchema), async (ctx) => {
    ctx.body = presentChatAnswer(await chat({ db: deps.db, llm, logger: deps.logger }, actorOf(ctx), ctx.state.body as ChatInput, deps.clock.now()));
  });

  return router;
}
