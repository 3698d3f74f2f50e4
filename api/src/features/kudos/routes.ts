import Router from '@koa/router';
import type { Context } from 'koa';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, allow, requirePerson } from '../../http/auth.ts';
import { noBody, validateBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest, queryChoice, queryLocalDays, querySearch, queryUuid } from '../../http/query.ts';
import { uuidParam } from '../../http/params.ts';
import type { Actor } from '../../auth/credentials.ts';
import { presentKudos, presentSettings, presentWallOfFame } from './presenter.ts';
import { boostKudos, getKudos, giveKudosBatched, listKudos, settingsFor, updateKudosSettings } from './service.ts';
import type { KudosFilters } from './service.ts';
import { wallOfFame } from './wall-of-fame.ts';
import { KUDOS_FILTERS, PERIODS, giveKudosSchema, kudosSettingsSchema } from './schema.ts';
import type { GiveKudosInput, KudosSettingsInput, Period } from './schema.ts';

/** The list filters of CONTRACT §2 and §12 as instants: local days of the organization's time zone. */
function listFilters(ctx: Context, actor: Actor): KudosFilters {
  return {
    ...queryLocalDays(ctx, actor.organization.timezone || 'UTC'),
    search: querySearch(ctx),
    companyValue: queryUuid(ctx, 'company_value'),
  };
}

/** Kudos (CONTRACT §7, §12): give, lists, boost, timeline, wall of fame and the organization's kudos settings. */
export function kudosRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.use(authenticate());
  router.param('uuid', uuidParam);

  const list = async (ctx: Context, extra: KudosFilters) => {
    const page = pageRequest(ctx);
    const actor = actorOf(ctx);
    const { count, views } = await listKudos(deps.db, actor, { ...listFilters(ctx, actor), ...extra }, page);
    ctx.body = pageEnvelope(ctx, page, count, views.map(presentKudos), deps.config.publicUrl);
  };

  router.get('/v1/kudos/', rateLimit('reads'), async (ctx) => {
    const filter = queryChoice(ctx, 'filter', KUDOS_FILTERS);
    await list(ctx, { side: filter === 'kudos_given' ? 'given' : filter === 'kudos_received' ? 'received' : 'both' });
  });

  router.post('/v1/kudos/', rateLimit('writes'), requirePerson, validateBody(giveKudosSchema), async (ctx) => {
    const input = ctx.state.body as GiveKudosInput;
    const view = await giveKudosBatched(deps.writes, actorOf(ctx), input, deps.clock.now());
    deps.delivery.kick();
    ctx.status = 201;
    ctx.body = presentKudos(view);
  });

  router.get('/v1/kudos/organization/', rateLimit('reads'), allow('kudos.see_organization'), async (ctx) => {
    await list(ctx, { giver: queryUuid(ctx, 'giver'), receiver: queryUuid(ctx, 'receiver') });
  });

  router.get('/v1/kudos/timeline/', rateLimit('reads'), async (ctx) => {
    await list(ctx, { receiver: queryUuid(ctx, 'receiver') });
  });

  router.get('/v1/kudos/wall-of-fame/', rateLimit('reads'), async (ctx) => {
    const period: Period = queryChoice(ctx, 'period', PERIODS) ?? 'month';
    const page = pageRequest(ctx);
    const wall = await wallOfFame(deps.db, actorOf(ctx), period, page, deps.clock.now());
    ctx.body = presentWallOfFame(wall, (results) => pageEnvelope(ctx, page, wall.board.length, results, deps.config.publicUrl));
  });

  router.get('/v1/kudos/settings/', rateLimit('reads'), async (ctx) => {
    const { settings, givenToday } = await settingsFor(deps.db, actorOf(ctx), deps.clock.now());
    ctx.body = presentSettings(settings, givenToday);
  });

  router.patch('/v1/kudos/settings/', rateLimit('writes'), allow('kudos.manage_settings'), validateBody(kudosSettingsSchema), async (ctx) => {
    const { settings, givenToday } = await updateKudosSettings(deps.db, actorOf(ctx), ctx.state.body as KudosSettingsInput, deps.clock.now());
    ctx.body = presentSettings(settings, givenToday);
  });

  router.get('/v1/kudos/:uuid/', rateLimit('reads'), async (ctx) => {
    ctx.body = presentKudos(await getKudos(deps.db, actorOf(ctx), ctx.params.uuid));
  });

  router.post('/v1/kudos/:uuid/boost/', rateLimit('writes'), requirePerson, noBody, async (ctx) => {
    const view = await boostKudos(deps.db, actorOf(ctx), ctx.params.uuid, deps.clock.now());
    ctx.status = 201;
    ctx.body = presentKudos(view);
  });

  return router;
}
