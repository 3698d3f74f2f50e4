import Router from '@koa/router';
import type { Context } from 'koa';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { readRawBody } from '../../http/raw-body.ts';
import { ApiError, unauthorized } from '../../lib/errors.ts';
import { safeEqual } from '../../lib/secrets.ts';
import { MAX_INBOUND_BYTES, UnreadableMessage, parseInbound } from '../../inbound/parse.ts';
import { presentInboundOutcome } from './presenter.ts';

function presentedSecret(ctx: Context): string | null {
  const header = ctx.get('x-inbound-secret');
  if (header) return header;
  const auth = /^Bearer\s+(.+)$/i.exec(ctx.get('authorization'));
  return auth ? auth[1].trim() : null;
}

/**
 * `POST /v1/inbound-email/` for hosted mail providers: the raw MIME message as the body (any content type
 * but JSON), authenticated by INBOUND_EMAIL_SECRET in `Authorization: Bearer …` or `X-Inbound-Secret`.
 */
export function inboundRoutes(deps: Deps, _mw: Middlewares): Router {
  const router = new Router();
  router.post('/v1/inbound-email/', async (ctx) => {
    const secret = deps.config.inboundEmailSecret;
    if (!secret) throw new ApiError(403, 'inbound_email_disabled', 'Inbound e-mail over HTTP is off: set INBOUND_EMAIL_SECRET.');
    const presented = presentedSecret(ctx);
    if (!presented) throw unauthorized('credential_absent');
    if (!safeEqual(presented, secret)) throw unauthorized('invalid_credentials');
    if (ctx.is('application/json')) throw new ApiError(415, 'unsupported_media_type', 'Send the raw MIME message (message/rfc822), not JSON.');
    const raw = await readRawBody(ctx, MAX_INBOUND_BYTES, `The message is larger than ${MAX_INBOUND_BYTES / (1024 * 1024)} MiB.`);
    if (raw.length === 0) throw new ApiError(400, 'empty_message', 'The request body must be a raw MIME message.');
    const mail = await parseInbound(raw, 'http').catch((err: unknown) => {
      throw err instanceof UnreadableMessage ? new ApiError(400, 'invalid_message', err.message) : err;
    });
    if (!mail.from) throw new ApiError(400, 'invalid_message', 'The message has no From address.');
    const outcome = await deps.inboundRoutes.route(mail);
    ctx.status = 202;
    ctx.body = presentInboundOutcome(mail, outcome);
  });
  return router;
}
