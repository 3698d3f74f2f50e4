import Router from '@koa/router';
import type { Deps } from '../../../http/deps.ts';
import { readRawBody } from '../../../http/raw-body.ts';
import { chatRequestDeps } from '../../chat-platform/request-deps.ts';
import { interaction } from './interactions.ts';
import { INTERACTIONS_PATH, MAX_REQUEST_BYTES } from './requests.ts';

/** Discord's interactions endpoint: authenticated by Discord's Ed25519 signature (requests.ts), not by an API key. */
export function discordRoutes(deps: Deps): Router {
  const router = new Router();
  const discord = chatRequestDeps(deps);
  router.post(INTERACTIONS_PATH, async (ctx) => {
    const raw = await readRawBody(ctx, MAX_REQUEST_BYTES, 'The request is larger than 256 KiB.');
    const answer = await interaction(discord, raw, ctx.req.headers);
    ctx.status = answer.status;
    ctx.body = answer.body;
  });
  return router;
}
