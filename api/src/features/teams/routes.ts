import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { noBody, validateBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest } from '../../http/query.ts';
import { uuidParam } from '../../http/params.ts';
import { queryBoolean, querySearch } from '../../http/query.ts';
import { addMembers, createTeam, deleteTeam, getTeam, listTeams, removeMember, teamMembers, updateTeam } from './service.ts';
import { presentMember, presentTeam } from './presenter.ts';
import { addMembersSchema, createTeamSchema, updateTeamSchema } from './schema.ts';
import type { AddMembersInput, CreateTeamInput, UpdateTeamInput } from './schema.ts';

export function teamRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.use(authenticate());
  router.param('uuid', uuidParam);
  router.param('user_uuid', uuidParam);

  router.get('/v1/teams/', rateLimit('reads'), async (ctx) => {
    const page = pageRequest(ctx);
    const filters = { search: querySearch(ctx), active: queryBoolean(ctx, 'active') };
    const { count, rows } = await listTeams(deps.db, actorOf(ctx), filters, page);
    ctx.body = pageEnvelope(ctx, page, count, rows.map(presentTeam), deps.config.publicUrl);
  });

  router.post('/v1/teams/', rateLimit('writes'), validateBody(createTeamSchema), async (ctx) => {
    const team = await createTeam(deps.db, actorOf(ctx), ctx.state.body as CreateTeamInput, deps.clock.now());
    ctx.status = 201;
    ctx.body = presentTeam(team);
  });

  router.get('/v1/teams/:uuid/', rateLimit('reads'), async (ctx) => {
    ctx.body = presentTeam(await getTeam(deps.db, actorOf(ctx), ctx.params.uuid));
  });

  router.patch('/v1/teams/:uuid/', rateLimit('writes'), validateBody(updateTeamSchema), async (ctx) => {
    const input = ctx.state.body as UpdateTeamInput;
    const team = await updateTeam(deps.db, actorOf(ctx), ctx.params.uuid, input, deps.clock.now());
    ctx.body = presentTeam(team);
  });

  router.delete('/v1/teams/:uuid/', rateLimit('writes'), noBody, async (ctx) => {
    await deleteTeam(deps.db, actorOf(ctx), ctx.params.uuid);
    ctx.status = 204;
  });

  // A bare array (CONTRACT §2: existing clients read it so).
  router.get('/v1/teams/:uuid/members/', rateLimit('reads'), async (ctx) => {
    ctx.body = (await teamMembers(deps.db, actorOf(ctx), ctx.params.uuid)).map(presentMember);
  });

  router.post('/v1/teams/:uuid/member/', rateLimit('writes'), validateBody(addMembersSchema), async (ctx) => {
    const input = ctx.state.body as AddMembersInput;
    const team = await addMembers(deps.db, actorOf(ctx), ctx.params.uuid, input, deps.clock.now());
    ctx.body = presentTeam(team);
  });

  router.delete('/v1/teams/:uuid/member/:user_uuid/', rateLimit('writes'), noBody, async (ctx) => {
    await removeMember(deps.db, actorOf(ctx), ctx.params.uuid, ctx.params.user_uuid, deps.clock.now());
    ctx.status = 204;
  });

  return router;
}
