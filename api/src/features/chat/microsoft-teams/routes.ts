import Router from '@koa/router';
import type { Deps } from '../../../http/deps.ts';
import { readRawBody } from '../../../http/raw-body.ts';
import { handleActivity } from './activities.ts';
import { MAX_ACTIVITY_BYTES, MESSAGES_PATH, teamsKeys, verifyActivity } from './requests.ts';
import type { TeamsDeps } from './requests.ts';

/** The Teams bot's messaging endpoint: authenticated by the Bot Framework's token, not an API key (the method matrix names it so). */
export function teamsRoutes(deps: Deps): Router {
  const router = new Router();
  const teams: TeamsDeps = {
    db: deps.db, box: deps.secretBox, http: deps.outbound.http, config: deps.config, logger: deps.logger, now: () => deps.clock.now(), kick: () => deps.delivery.kick(),
    keys: teamsKeys(deps.outbound.http, deps.config),
  };
  router.post(MESSAGES_PATH, async (ctx) => {
    const raw = await readRawBody(ctx, MAX_ACTIVITY_BYTES, 'The activity is larger than 1 MiB.');
    const verified = await verifyActivity(teams, raw.toString('utf8'), ctx.get('authorization') || undefined);
    await handleActivity(teams, verified);
    ctx.status = 200;
    ctx.body = {};
  });
  return router;
}
