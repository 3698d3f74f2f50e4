import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { notFound } from '../../lib/errors.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest } from '../../http/query.ts';
import { uuidParam } from '../../http/params.ts';
import { querySearch } from '../../http/query.ts';
import { TEMPLATES, findTemplate, presentTemplate } from './catalog.ts';

export function templateRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.param('uuid', uuidParam);

  router.get('/v1/templates/', authenticate(), rateLimit('reads'), (ctx) => {
    const page = pageRequest(ctx);
    const term = querySearch(ctx)?.toLowerCase();
    const matching = term ? TEMPLATES.filter((t) => t.name.toLowerCase().includes(term)) : TEMPLATES;
    const results = matching.slice(page.offset, page.offset + page.limit).map(presentTemplate);
    ctx.body = pageEnvelope(ctx, page, matching.length, results, deps.config.publicUrl);
  });

  router.get('/v1/templates/:uuid/', authenticate(), rateLimit('reads'), (ctx) => {
    const template = findTemplate(ctx.params.uuid);
    if (!template) throw notFound();
    ctx.body = presentTemplate(template);
  });

  return router;
}
