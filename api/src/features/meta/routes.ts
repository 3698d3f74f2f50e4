import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { publicBase } from '../../http/forwarded.ts';
import { pageRequest } from '../../http/query.ts';
import { notFound } from '../../lib/errors.ts';
import { CHANGELOG } from './changelog.ts';
import { presentIndex, presentLiveness, presentPlatformStatus, presentReadiness } from './presenter.ts';
import { readiness } from './service.ts';

const require = createRequire(import.meta.url);
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
/** The files of swagger-ui-dist the reference page uses, by name (a Map: a request's name is never a member of Object.prototype). */
const SWAGGER_FILES = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'application/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rollcall API reference</title>
<link rel="icon" href="/docs/static/favicon-32x32.png">
<link rel="stylesheet" href="/docs/static/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;

// A separate file (not inline) so the page works under a strict Content-Security-Policy.
const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#reference', deepLinking: true, persistAuthorization: true });`;

/** Operational endpoints: health, readiness, metrics, the OpenAPI document, its reference page, the changelog. */
export function metaRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();

  // A bare 404 at the root told a newcomer nothing: point at the reference and the document instead.
  for (const path of ['/', '/v1/']) {
    router.get(path, (ctx) => {
      ctx.body = presentIndex(publicBase(ctx, deps.config.publicUrl));
    });
  }

  router.get('/healthz', (ctx) => {
    ctx.body = presentLiveness();
  });

  router.get('/readyz', async (ctx) => {
    const { status, body } = presentReadiness(await readiness(deps.db, deps.logger));
    ctx.status = status;
    ctx.body = body;
  });

  router.get('/metrics', async (ctx) => {
    ctx.type = deps.metrics.registry.contentType;
    ctx.body = await deps.metrics.registry.metrics();
  });

  router.get('/v1/openapi.json', async (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = await deps.openApiDocument();
  });

  router.get('/docs', (ctx) => {
    ctx.type = 'html';
    ctx.body = DOCS_PAGE;
  });
  router.get('/docs/init.js', (ctx) => {
    ctx.type = 'application/javascript';
    ctx.body = DOCS_INIT;
  });
  router.get('/docs/static/:file', async (ctx) => {
    const type = SWAGGER_FILES.get(ctx.params.file);
    if (!type) throw notFound();
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = await fs.readFile(path.join(SWAGGER_DIR, ctx.params.file));
  });

  router.get('/v1/changelog/', (ctx) => {
    const page = pageRequest(ctx);
    const results = CHANGELOG.slice(page.offset, page.offset + page.limit);
    ctx.body = pageEnvelope(ctx, page, CHANGELOG.length, results, deps.config.publicUrl);
  });

  // /v1/platform/* takes API keys only (the method matrix, auth/method-matrix.ts).
  router.get('/v1/platform/status/', authenticate(), rateLimit('reads'), (ctx) => {
    ctx.body = presentPlatformStatus(actorOf(ctx).organization, deps.config);
  });

  return router;
}
