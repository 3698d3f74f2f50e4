import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, allow } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { organizationView, updateOrganizationSettings } from './service.ts';
import { presentOrganization } from './presenter.ts';
import { updateOrganizationSchema } from './schema.ts';
import type { UpdateOrganizationInput } from './schema.ts';

export function organizationRoutes(deps: Deps, { authenticate, rateLimit, clearsCredentialCache }: Middlewares): Router {
  const router = new Router();

  router.get('/v1/organization/', authenticate(), rateLimit('reads'), async (ctx) => {
    ctx.body = presentOrganization(await organizationView(deps.db, actorOf(ctx).organization.uuid));
  });

  router.patch(
    '/v1/organization/',
    authenticate(),
    rateLimit('writes'),
    allow('organization.update'),
    validateBody(updateOrganizationSchema),
    clearsCredentialCache,
    async (ctx) => {
      const services = { box: deps.secretBox, config: deps.config, resolve: deps.outbound.resolve };
      const input = ctx.state.body as UpdateOrganizationInput;
      ctx.body = presentOrganization(await updateOrganizationSettings(deps.db, services, actorOf(ctx).organization.uuid, input, deps.clock.now()));
    },
  );

  return router;
}
