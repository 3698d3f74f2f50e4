import Router from '@koa/router';
import type { Context } from 'koa';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { assertAgentName } from './identity.ts';
import { MESSAGE_LIST_LIMIT, listMessages, readMessages, sendMessage } from './messages-service.ts';
import { presentMessage, presentReadCount } from './presenter.ts';
import { messageSchema, readSchema } from './schema.ts';
import type { MessageInput, ReadInput } from './schema.ts';
import { queryBoolean, queryInteger, queryText } from '../../http/query.ts';

/** Agent messages (CONTRACT §6): all on the free-plan CLI Bearer allow-list. */
export function agentMessageRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();

  router.post('/v1/agent-messages/', authenticate(), rateLimit('agent'), validateBody(messageSchema), async (ctx) => {
    const { message, agentName } = await sendMessage(deps.db, actorOf(ctx), ctx.state.body as MessageInput, deps.clock.now());
    deps.delivery.kick();
    ctx.status = 201;
    ctx.body = presentMessage(message, agentName);
  });

  router.get('/v1/agent-messages/', authenticate(), rateLimit('agent'), async (ctx) => {
    const agentName = queryText(ctx, 'agent_name');
    if (agentName !== undefined && agentName !== '') assertAgentName(agentName);
    const filters = {
      agentName: agentName || null,
      delivered: queryBoolean(ctx, 'delivered') ?? null,
      limit: queryInteger(ctx, 'limit', 1, MESSAGE_LIST_LIMIT) ?? MESSAGE_LIST_LIMIT,
    };
    const rows = await listMessages(deps.db, actorOf(ctx).organization.uuid, filters, deps.clock.now());
    ctx.body = rows.map((row) => presentMessage(row, row.agent_name));
  });

  const markRead = async (ctx: Context) => {
    const { message_ids } = ctx.state.body as ReadInput;
    ctx.body = presentReadCount(await readMessages(deps.db, actorOf(ctx).organization.uuid, message_ids, deps.clock.now()));
  };
  router.post('/v1/agent-messages/read/', authenticate(), rateLimit('agent'), validateBody(readSchema), markRead);
  router.patch('/v1/agent-messages/read/', authenticate(), rateLimit('agent'), validateBody(readSchema), markRead);

  return router;
}
