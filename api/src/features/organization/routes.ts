import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, allow } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { getOrganization, updateOrganization } from './service.ts';
import { presentOrganization } from './presenter.ts';
import { updateOrganizationSchema } from './schema.ts';
import type { UpdateOrganizationInput } from './schema.ts';
import { connectPlatform, platformName } from '../chat/connection.ts';

export function organizationRoutes(deps: Deps, { authenticate, rateLimit, clearsCredentialCache }: Middlewares): Router {
  const router = new Router();

  router.get('/v1/organization/', authenticate({ freePlanBearer: true }), rateLimit('reads'), async (ctx) => {
    const org = await getOrganization(deps.db, actorOf(ctx).organization.uuid);
    ctx.body = presentOrganization(org, await platformName(deps.db, org.uuid));
  });

  router.patch(
    '/v1/organization/',
    authenticate(),
    rateLimit('writes'),
    allow('organization.update'),
    validateBody(updateOrganizationSchema),
    clearsCredentialCache,
    async (ctx) => {
      const { platform, ...input } = ctx.state.body as UpdateOrganizationInput;
      const organizationUuid = actorOf(ctx).organization.uuid;
      const now = deps.clock.now();
      if (platform !== undefined) {
        await connectPlatform(deps.db, deps.secretBox, deps.config, deps.outbound.resolve, organizationUuid, platform, now);
      }
      const org = await updateOrganization(deps.db, organizationUuid, input, now);
      ctx.body = presentOrganization(org, await platformName(deps.db, org.uuid));
    },
  );

  return router;
}
