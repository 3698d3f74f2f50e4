import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { noBody, validateBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest } from '../../http/query.ts';
import { uuidParam } from '../../http/params.ts';
import { assertPersonCredential, createKey, deleteKey, getKey, listKeys, updateKey } from './service.ts';
import { presentKey } from './presenter.ts';
import { createKeySchema, updateKeySchema } from './schema.ts';
import type { CreateKeyInput, UpdateKeyInput } from './schema.ts';

export function apiKeyRoutes(deps: Deps, { authenticate, rateLimit, clearsCredentialCache }: Middlewares): Router {
  const router = new Router();
  router.use(authenticate(), (ctx, next) => {
    assertPersonCredential(actorOf(ctx));
    return next();
  });
  router.param('uuid', uuidParam);

  router.get('/v1/api-keys/', rateLimit('reads'), async (ctx) => {
    const page = pageRequest(ctx);
    const { count, rows } = await listKeys(deps.db, actorOf(ctx), page);
    ctx.body = pageEnvelope(ctx, page, count, rows.map((row) => presentKey(row)), deps.config.publicUrl);
  });

  router.post('/v1/api-keys/', rateLimit('writes'), validateBody(createKeySchema), async (ctx) => {
    const { key, secret } = await createKey(deps.db, actorOf(ctx), ctx.state.body as CreateKeyInput, deps.clock.now());
    ctx.status = 201;
    ctx.body = presentKey(key, secret);
  });

  router.get('/v1/api-keys/:uuid/', rateLimit('reads'), async (ctx) => {
    ctx.body = presentKey(await getKey(deps.db, actorOf(ctx), ctx.params.uuid));
  });

  router.patch('/v1/api-keys/:uuid/', rateLimit('writes'), validateBody(updateKeySchema), clearsCredentialCache, async (ctx) => {
    const input = ctx.state.body as UpdateKeyInput;
    const { key, secret } = await updateKey(deps.db, actorOf(ctx), ctx.params.uuid, input, deps.clock.now());
    ctx.body = presentKey(key, secret);
  });

  router.delete('/v1/api-keys/:uuid/', rateLimit('writes'), noBody, clearsCredentialCache, async (ctx) => {
    await deleteKey(deps.db, actorOf(ctx), ctx.params.uuid);
    ctx.status = 204;
  });

  return router;
}
