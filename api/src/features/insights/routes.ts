import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { uuidParam } from '../../http/params.ts';
import { SINCE, UNTIL, queryDateRange } from '../../http/query.ts';
import { checkinInsights, teamInsights } from './service.ts';
import { exportAnswers } from './export.ts';
import { presentInsights } from './presenter.ts';

/** The check-in paths, as every check-in route has them: /v1/followups/ answers as /v1/checkins/ (CONTRACT §7). */
export const CHECKIN_BASES = ['/v1/checkins', '/v1/followups'] as const;

/** `from` and `to` (YYYY-MM-DD, also since/until and start_date/end_date): 400 invalid_date_range when unreadable. */
const period = (ctx: Parameters<typeof queryDateRange>[0]) => queryDateRange(ctx, ['from', ...SINCE], ['to', ...UNTIL]);

export function insightsRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.use(authenticate());
  router.param('uuid', uuidParam);

  for (const base of CHECKIN_BASES) {
    router.get(`${base}/:uuid/insights/`, rateLimit('reads'), async (ctx) => {
      ctx.body = presentInsights(await checkinInsights(deps.db, actorOf(ctx), ctx.params.uuid, period(ctx), deps.clock.now()));
    });

    router.get(`${base}/:uuid/responses/export/`, rateLimit('reads'), async (ctx) => {
      const { filename, csv } = await exportAnswers(deps.db, actorOf(ctx), ctx.params.uuid, period(ctx), deps.clock.now());
      ctx.type = 'text/csv; charset=utf-8';
      ctx.attachment(filename);
      ctx.body = csv;
    });
  }

  router.get('/v1/teams/:uuid/insights/', rateLimit('reads'), async (ctx) => {
    ctx.body = presentInsights(await teamInsights(deps.db, actorOf(ctx), ctx.params.uuid, period(ctx), deps.clock.now()));
  });
  return router;
}
