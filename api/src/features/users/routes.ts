import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest } from '../../http/query.ts';
import { uuidParam } from '../../http/params.ts';
import { queryBoolean, queryChoice, queryDateRange, queryOrdering, querySearch } from '../../http/query.ts';
import { canSeeEmailOf } from '../../auth/policy.ts';
import { getUserDetail, listUsers, updateUser } from './service.ts';
import { presentUser } from './presenter.ts';
import { updateUserSchema } from './schema.ts';
import type { UpdateUserInput } from './schema.ts';
import { ROLES } from '../../db/tables.ts';
import { USER_STATUSES } from './invitation-state.ts';

const USER_ORDERING = { first_name: 'u.first_name', last_name: 'u.last_name', email: 'u.email', created_at: 'u.created_at', role: 'u.role' };

export function userRoutes(deps: Deps, { authenticate, rateLimit, clearsCredentialCache }: Middlewares): Router {
  const router = new Router();
  router.param('uuid', uuidParam);

  router.get('/v1/users/', authenticate(), rateLimit('reads'), async (ctx) => {
    const actor = actorOf(ctx);
    const page = pageRequest(ctx);
    const { from, to } = queryDateRange(ctx);
    const filters = {
      search: querySearch(ctx),
      role: queryChoice(ctx, 'role', ROLES),
      isActive: queryBoolean(ctx, 'is_active'),
      status: queryChoice(ctx, 'status', USER_STATUSES),
      since: from,
      until: to,
      ordering: queryOrdering(ctx, USER_ORDERING, { column: 'u.first_name', order: 'asc' }),
    };
    const includeEmail = queryBoolean(ctx, 'include_email') === true;
    const { count, rows, invitations } = await listUsers(deps.db, actor, filters, page);
    const now = deps.clock.now();
    const results = rows.map((row) => presentUser(row, { email: includeEmail && canSeeEmailOf(actor, row), invitation: invitations.get(row.uuid), now }));
    ctx.body = pageEnvelope(ctx, page, count, results, deps.config.publicUrl);
  });

  router.get('/v1/users/:uuid/', authenticate(), rateLimit('reads'), async (ctx) => {
    const actor = actorOf(ctx);
    const { row, timeOff, invitation } = await getUserDetail(deps.db, actor, ctx.params.uuid);
    ctx.body = presentUser(row, { email: queryBoolean(ctx, 'include_email') === true && canSeeEmailOf(actor, row), timeOff, invitation, now: deps.clock.now() });
  });

  router.patch('/v1/users/:uuid/', authenticate(), rateLimit('writes'), validateBody(updateUserSchema), clearsCredentialCache, async (ctx) => {
    const actor = actorOf(ctx);
    const now = deps.clock.now();
    const { row, timeOff, invitation } = await updateUser(deps.db, actor, ctx.params.uuid, ctx.state.body as UpdateUserInput, now);
    ctx.body = presentUser(row, { email: canSeeEmailOf(actor, row), timeOff, invitation, now });
  });

  return router;
}
