import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, requirePerson } from '../../http/auth.ts';
import { noBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest, queryChoice, queryUuid } from '../../http/query.ts';
import { uuidParam } from '../../http/params.ts';
import { localDate } from '../../lib/dates.ts';
import { listBlockers, resolveBlocker } from './blockers-service.ts';
import { presentBlocker } from './presenter.ts';
import { CHECKIN_BASES } from './routes.ts';

const STATES = ['open', 'resolved'] as const;

/** A check-in's blockers (issue 36): the list, and resolving one. */
export function checkinBlockerRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.use(authenticate());
  router.param('uuid', uuidParam);
  router.param('blocker', uuidParam);

  for (const base of CHECKIN_BASES) {
    router.get(`${base}/:uuid/blockers/`, rateLimit('reads'), async (ctx) => {
      const page = pageRequest(ctx);
      const filters = { state: queryChoice(ctx, 'state', STATES), user: queryUuid(ctx, 'user', 'user must be a user uuid.') };
      const { checkin, count, rows, today } = await listBlockers(deps.db, actorOf(ctx), ctx.params.uuid, filters, page, deps.clock.now());
      ctx.body = pageEnvelope(ctx, page, count, rows.map((row) => presentBlocker(checkin, row, today)), deps.config.publicUrl);
    });

    router.post(`${base}/:uuid/blockers/:blocker/resolve/`, rateLimit('writes'), requirePerson, noBody, async (ctx) => {
      const now = deps.clock.now();
      const { checkin, row } = await resolveBlocker(deps.db, actorOf(ctx), ctx.params.uuid, ctx.params.blocker, now);
      ctx.body = presentBlocker(checkin, row, localDate(now, checkin.timezone));
    });
  }
  return router;
}
