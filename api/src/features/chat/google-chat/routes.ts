import Router from '@koa/router';
import type { Deps } from '../../../http/deps.ts';
import { readRawBody } from '../../../http/raw-body.ts';
import { handleEvent } from './events.ts';
import { EVENTS_PATH, MAX_EVENT_BYTES, googleChatKeys, verifyEvent } from './requests.ts';
import type { GoogleChatDeps } from './requests.ts';
import { chatRequestDeps } from '../../chat-platform/request-deps.ts';

/** The Chat app's HTTP endpoint: authenticated by Google Chat's token, not an API key (the method matrix names it so). */
export function googleChatRoutes(deps: Deps): Router {
  const router = new Router();
  const chat: GoogleChatDeps = {
    ...chatRequestDeps(deps),
    keys: googleChatKeys(deps.outbound.http, deps.config),
  };
  router.post(EVENTS_PATH, async (ctx) => {
    const raw = await readRawBody(ctx, MAX_EVENT_BYTES, 'The event is larger than 1 MiB.');
    const verified = await verifyEvent(chat, raw.toString('utf8'), ctx.get('authorization') || undefined);
    ctx.status = 200;
    ctx.body = await handleEvent(chat, verified);
  });
  return router;
}
