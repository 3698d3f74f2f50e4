import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest } from '../../http/query.ts';
import { uuidParam } from '../../http/params.ts';
import { querySearch } from '../../http/query.ts';
import { getTemplate, listTemplates } from './catalog.ts';
import { presentTemplate } from './presenter.ts';

export function templateRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.param('uuid', uuidParam);

  router.get('/v1/templates/', authenticate(), rateLimit('reads'), (ctx) => {
    const page = pageRequest(ctx);
    const { count, rows } = listTemplates(querySearch(ctx), page);
    ctx.body = pageEnvelope(ctx, page, count, rows.map(presentTemplate), deps.config.publicUrl);
  });

  router.get('/v1/templates/:uuid/', authenticate(), rateLimit('reads'), (ctx) => {
    ctx.body = presentTemplate(getTemplate(ctx.params.uuid));
  });

  return router;
}
