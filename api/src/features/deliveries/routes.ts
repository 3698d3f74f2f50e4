import Router from '@koa/router';
import { noBody } from '../../http/validation.ts';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, allow } from '../../http/auth.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest } from '../../http/query.ts';
import { uuidParam } from '../../http/params.ts';
import { CHANNELS, DELIVERY_STATUSES } from '../../db/tables.ts';
import { queryChoice } from '../../http/query.ts';
import { getDelivery, listDeliveries, redeliver } from './service.ts';
import { presentDelivery } from './presenter.ts';

/** Admin view of the outbox: why did something not arrive, and send it again. */
export function deliveryRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.param('uuid', uuidParam);
  const held = () => deps.mailer === null;

  router.get('/v1/deliveries/', authenticate(), rateLimit('reads'), allow('deliveries.manage'), async (ctx) => {
    const filters = { status: queryChoice(ctx, 'status', DELIVERY_STATUSES), channel: queryChoice(ctx, 'channel', CHANNELS) };
    const page = pageRequest(ctx);
    const { count, rows } = await listDeliveries(deps.db, actorOf(ctx), filters, page);
    ctx.body = pageEnvelope(ctx, page, count, rows.map((row) => presentDelivery(row, null, held())), deps.config.publicUrl);
  });

  router.get('/v1/deliveries/:uuid/', authenticate(), rateLimit('reads'), allow('deliveries.manage'), async (ctx) => {
    const { row, attempts } = await getDelivery(deps.db, actorOf(ctx), ctx.params.uuid);
    ctx.body = presentDelivery(row, attempts, held());
  });

  router.post('/v1/deliveries/:uuid/redeliver/', authenticate(), rateLimit('writes'), allow('deliveries.manage'), noBody, async (ctx) => {
    const { row, attempts } = await redeliver(deps.db, actorOf(ctx), ctx.params.uuid, deps.clock.now());
    deps.delivery.kick();
    ctx.body = presentDelivery(row, attempts, held());
  });

  return router;
}
