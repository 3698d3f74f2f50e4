import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { noBody, validateBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest } from '../../http/query.ts';
import { uuidParam } from '../../http/params.ts';
import { queryBoolean, queryDate, querySearch } from '../../http/query.ts';
import { archiveCheckin, checkinDetail, createCheckin, listCheckins, updateCheckin } from './service.ts';
import { presentCheckinDetail, presentCheckinListItem } from './presenter.ts';
import { createCheckinSchema, updateCheckinSchema } from './schema.ts';
import type { CreateCheckinInput, UpdateCheckinInput } from './schema.ts';

/** `/v1/followups/` answers the same as `/v1/checkins/` (CONTRACT §7). */
export const CHECKIN_BASES = ['/v1/checkins', '/v1/followups'] as const;

export function checkinRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.use(authenticate());
  router.param('uuid', uuidParam);

  for (const base of CHECKIN_BASES) {
    router.get(`${base}/`, rateLimit('reads'), async (ctx) => {
      const page = pageRequest(ctx);
      const includeSummary = queryBoolean(ctx, 'include_summary') === true;
      const includePendingUsers = queryBoolean(ctx, 'include_pending_users') === true;
      const filters = {
        search: querySearch(ctx),
        includeArchived: queryBoolean(ctx, 'include_archived') === true,
        active: queryBoolean(ctx, 'active'),
        date: queryDate(ctx, 'date'),
        includeSummary,
        includePendingUsers,
      };
      const { count, items } = await listCheckins(deps.db, actorOf(ctx), filters, page, deps.clock.now());
      const results = items.map((item) => presentCheckinListItem(item, { summary: includeSummary }));
      ctx.body = pageEnvelope(ctx, page, count, results, deps.config.publicUrl);
    });

    router.post(`${base}/create/`, rateLimit('writes'), validateBody(createCheckinSchema), async (ctx) => {
      const input = ctx.state.body as CreateCheckinInput;
      const detail = await createCheckin(deps.db, actorOf(ctx), input, deps.clock.now());
      ctx.status = 201;
      ctx.body = presentCheckinDetail(detail);
    });

    router.get(`${base}/:uuid/`, rateLimit('reads'), async (ctx) => {
      ctx.body = presentCheckinDetail(await checkinDetail(deps.db, actorOf(ctx), ctx.params.uuid));
    });

    router.get(`${base}/:uuid/detail/`, rateLimit('reads'), async (ctx) => {
      ctx.body = presentCheckinDetail(await checkinDetail(deps.db, actorOf(ctx), ctx.params.uuid));
    });

    router.patch(`${base}/:uuid/config/`, rateLimit('writes'), validateBody(updateCheckinSchema), async (ctx) => {
      const input = ctx.state.body as UpdateCheckinInput;
      const detail = await updateCheckin(deps.db, actorOf(ctx), ctx.params.uuid, input, deps.clock.now());
      ctx.body = presentCheckinDetail(detail);
    });

    router.delete(`${base}/:uuid/archive/`, rateLimit('writes'), noBody, async (ctx) => {
      await archiveCheckin(deps.db, actorOf(ctx), ctx.params.uuid, deps.clock.now());
      ctx.status = 204;
    });
  }
  return router;
}
