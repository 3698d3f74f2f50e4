import Router from '@koa/router';
import type { Context } from 'koa';
import type { Deps } from '../../../http/deps.ts';
import { readRawBody } from '../../../http/raw-body.ts';
import { command } from './commands.ts';
import { action, dialogSubmission } from './interactions.ts';
import type { MattermostAnswer } from './interactions.ts';
import { MAX_REQUEST_BYTES, REQUEST_PATHS } from './requests.ts';
import type { MattermostDeps } from './requests.ts';
import { chatRequestDeps } from '../../chat-platform/request-deps.ts';

/** Mattermost's request URLs: authenticated by the command's token or our signature (requests.ts), not by an API key. */
export function mattermostRoutes(deps: Deps): Router {
  const router = new Router();
  const mm: MattermostDeps = chatRequestDeps(deps);
  const receive = (handle: (raw: string, ctx: Context) => Promise<MattermostAnswer>) => async (ctx: Context) => {
    const raw = await readRawBody(ctx, MAX_REQUEST_BYTES, 'The request is larger than 256 KiB.');
    const answer = await handle(raw.toString('utf8'), ctx);
    ctx.status = answer.status;
    ctx.body = answer.body;
  };
  router.post(REQUEST_PATHS.actions, receive((raw) => action(mm, raw)));
  router.post(REQUEST_PATHS.dialogs, receive((raw) => dialogSubmission(mm, raw)));
  router.post(REQUEST_PATHS.commands, receive((raw, ctx) => command(mm, raw, ctx.req.headers)));
  return router;
}
