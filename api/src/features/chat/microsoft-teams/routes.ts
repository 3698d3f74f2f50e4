import Router from '@koa/router';
import type { Deps } from '../../../http/deps.ts';
import { readRawBody } from '../../../http/raw-body.ts';
import { acknowledgement, handleActivity } from './activities.ts';
import { MAX_ACTIVITY_BYTES, MESSAGES_PATH, teamsKeys, verifyActivity } from './requests.ts';
import type { TeamsDeps } from './requests.ts';
import { chatRequestDeps } from '../../chat-platform/request-deps.ts';

/** The Teams bot's messaging endpoint: authenticated by the Bot Framework's token, not an API key (the method matrix names it so). */
export function teamsRoutes(deps: Deps): Router {
  const router = new Router();
  const teams: TeamsDeps = {
    ...chatRequestDeps(deps),
    keys: teamsKeys(deps.outbound.http, deps.config),
  };
  router.post(MESSAGES_PATH, async (ctx) => {
    const raw = await readRawBody(ctx, MAX_ACTIVITY_BYTES, 'The activity is larger than 1 MiB.');
    const verified = await verifyActivity(teams, raw.toString('utf8'), ctx.get('authorization') || undefined);
    await handleActivity(teams, verified);
    ctx.status = 200;
    ctx.body = acknowledgement();
  });
  return router;
}
