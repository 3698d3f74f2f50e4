import Router from '@koa/router';
import type { Context } from 'koa';
import type { Deps } from '../../../http/deps.ts';
import type { Middlewares } from '../../../http/middlewares.ts';
import { allow } from '../../../http/auth.ts';
import { publicBase } from '../../../http/forwarded.ts';
import { readRawBody } from '../../../http/raw-body.ts';
import { slackManifest } from './manifest.ts';
import { receiveSlack } from './receive.ts';
import { MAX_REQUEST_BYTES, REQUEST_PATHS } from './requests.ts';
import type { RequestKind, SlackDeps } from './requests.ts';
import { chatRequestDeps } from '../../chat-platform/request-deps.ts';

/**
 * Slack's request URLs (authenticated by Slack's signature, not by an API key: the method matrix names them so)
 * and the app manifest for admins.
 */
export function slackRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  const slack: SlackDeps = chatRequestDeps(deps);

  const receive = (kind: RequestKind) => async (ctx: Context) => {
    const raw = await readRawBody(ctx, MAX_REQUEST_BYTES, 'The request is larger than 1 MiB.');
    const answer = await receiveSlack(slack, kind, raw.toString('utf8'), ctx.req.headers);
    ctx.status = answer.status;
    ctx.body = answer.body;
  };
  router.post(REQUEST_PATHS.events, receive('events'));
  router.post(REQUEST_PATHS.interactions, receive('interactions'));
  router.post(REQUEST_PATHS.commands, receive('commands'));

  router.get('/v1/integrations/slack/manifest/', authenticate(), rateLimit('reads'), allow('organization.update'), async (ctx) => {
    ctx.body = slackManifest(publicBase(ctx, deps.config.publicUrl));
  });
  return router;
}
