import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, allow } from '../../http/auth.ts';
import { noBody, validateBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest } from '../../http/query.ts';
import { uuidParam } from '../../http/params.ts';
import { presentCompanyValue } from './presenter.ts';
import { createCompanyValue, deleteCompanyValue, getCompanyValue, listCompanyValues, updateCompanyValue } from './values-service.ts';
import { companyValueSchema, updateCompanyValueSchema } from './schema.ts';
import type { CompanyValueInput, UpdateCompanyValueInput } from './schema.ts';

/** Company values (CONTRACT §7): the list for everyone, writes for admins. */
export function companyValueRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.use(authenticate());
  router.param('uuid', uuidParam);

  router.get('/v1/company-values/', rateLimit('reads'), async (ctx) => {
    const page = pageRequest(ctx);
    const rows = await listCompanyValues(deps.db, actorOf(ctx));
    ctx.body = pageEnvelope(ctx, page, rows.length, rows.slice(page.offset, page.offset + page.limit).map(presentCompanyValue), deps.config.publicUrl);
  });

  router.post('/v1/company-values/', rateLimit('writes'), allow('company_values.manage'), validateBody(companyValueSchema), async (ctx) => {
    const row = await createCompanyValue(deps.db, actorOf(ctx), ctx.state.body as CompanyValueInput, deps.clock.now());
    ctx.status = 201;
    ctx.body = presentCompanyValue(row);
  });

  router.get('/v1/company-values/:uuid/', rateLimit('reads'), async (ctx) => {
    ctx.body = presentCompanyValue(await getCompanyValue(deps.db, actorOf(ctx), ctx.params.uuid));
  });

  router.patch('/v1/company-values/:uuid/', rateLimit('writes'), allow('company_values.manage'), validateBody(updateCompanyValueSchema), async (ctx) => {
    const input = ctx.state.body as UpdateCompanyValueInput;
    ctx.body = presentCompanyValue(await updateCompanyValue(deps.db, actorOf(ctx), ctx.params.uuid, input, deps.clock.now()));
  });

  router.delete('/v1/company-values/:uuid/', rateLimit('writes'), allow('company_values.manage'), noBody, async (ctx) => {
    await deleteCompanyValue(deps.db, actorOf(ctx), ctx.params.uuid);
    ctx.status = 204;
  });

  return router;
}
