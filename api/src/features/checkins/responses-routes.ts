import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, requirePerson } from '../../http/auth.ts';
import { noBody, validateBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest } from '../../http/query.ts';
import { uuidParam } from '../../http/params.ts';
import { SINCE, UNTIL, queryDateRange, queryUuid } from '../../http/query.ts';
import { editResponse, listResponses, resetResponses, submitResponse } from './responses-service.ts';
import { presentResponse } from './presenter.ts';
import { CHECKIN_BASES } from './routes.ts';
import { editResponseSchema, responseSchema } from './schema.ts';
import type { EditResponseInput, ResponseInput } from './schema.ts';

/** date_start/date_end, also accepted as since/until and start_date/end_date (CONTRACT §12). */
const RANGE_FROM = ['date_start', ...SINCE];
const RANGE_TO = ['date_end', ...UNTIL];

export function checkinResponseRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.use(authenticate());
  router.param('uuid', uuidParam);

  for (const base of CHECKIN_BASES) {
    const path = `${base}/:uuid/responses/`;

    router.get(path, rateLimit('reads'), async (ctx) => {
      const page = pageRequest(ctx);
      const { from, to } = queryDateRange(ctx, RANGE_FROM, RANGE_TO);
      const user = queryUuid(ctx, 'user', 'user must be a user uuid.');
      const { checkin, count, rows } = await listResponses(deps.db, actorOf(ctx), ctx.params.uuid, { from, to, user }, page);
      ctx.body = pageEnvelope(ctx, page, count, rows.map((row) => presentResponse(checkin, row)), deps.config.publicUrl);
    });

    router.post(path, rateLimit('writes'), requirePerson, validateBody(responseSchema), async (ctx) => {
      const input = ctx.state.body as ResponseInput;
      const { checkin, row } = await submitResponse(deps.db, actorOf(ctx), ctx.params.uuid, input, deps.clock.now());
      ctx.status = 201;
      ctx.body = presentResponse(checkin, row);
    });

    router.put(path, rateLimit('writes'), requirePerson, validateBody(editResponseSchema), async (ctx) => {
      const input = ctx.state.body as EditResponseInput;
      const { checkin, row } = await editResponse(deps.db, actorOf(ctx), ctx.params.uuid, input, deps.clock.now());
      ctx.body = presentResponse(checkin, row);
    });

    router.delete(path, rateLimit('writes'), requirePerson, noBody, async (ctx) => {
      const range = queryDateRange(ctx, RANGE_FROM, RANGE_TO);
      await resetResponses(deps.db, actorOf(ctx), ctx.params.uuid, range, deps.clock.now());
      ctx.status = 204;
    });
  }
  return router;
}
