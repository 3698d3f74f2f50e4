import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, requirePerson } from '../../http/auth.ts';
import { noBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest, queryDateRange } from '../../http/query.ts';
import { uuidParam } from '../../http/params.ts';
import { createAnswerLink, listRuns } from './runs-service.ts';
import { presentAnswerLink, presentRunDay } from './presenter.ts';

/** Each day's run of a check-in, and answer links for the caller. */
export function runRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.use(authenticate());
  router.param('uuid', uuidParam);

  router.get('/v1/checkins/:uuid/runs/', rateLimit('reads'), async (ctx) => {
    const page = pageRequest(ctx);
    const range = queryDateRange(ctx);
    const { checkin, count, days } = await listRuns(deps.db, actorOf(ctx), ctx.params.uuid, range, page);
    ctx.body = pageEnvelope(ctx, page, count, days.map((day) => presentRunDay(checkin, day)), deps.config.publicUrl);
  });

  router.post('/v1/checkins/:uuid/answer-link/', rateLimit('writes'), requirePerson, noBody, async (ctx) => {
    const link = await createAnswerLink(deps.db, deps.config, actorOf(ctx), ctx.params.uuid, deps.clock.now());
    ctx.status = 201;
    ctx.body = presentAnswerLink(link);
  });
  return router;
}
