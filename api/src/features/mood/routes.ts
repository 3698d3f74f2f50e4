import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, requirePerson } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { queryDate } from '../../http/query.ts';
import { readMood, trackMood } from './service.ts';
import { presentMood, presentMoodReading } from './presenter.ts';
import { trackMoodSchema } from './schema.ts';
import type { TrackMoodInput } from './schema.ts';

export function moodRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();

  router.get('/v1/mood/track/', authenticate(), rateLimit('reads'), requirePerson, async (ctx) => {
    const actor = actorOf(ctx);
    ctx.body = presentMoodReading(actor, await readMood(deps.db, actor, queryDate(ctx, 'date'), deps.clock.now()));
  });

  // 201 when the day's mood is new, 200 when it replaced that day's score.
  router.post('/v1/mood/track/', authenticate(), rateLimit('writes'), requirePerson, validateBody(trackMoodSchema), async (ctx) => {
    const actor = actorOf(ctx);
    const { row, created } = await trackMood(deps.db, actor, ctx.state.body as TrackMoodInput, deps.clock.now());
    ctx.status = created ? 201 : 200;
    ctx.body = presentMood(actor, row.date, row);
  });

  return router;
}
