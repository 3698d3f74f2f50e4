import type { Operation } from '../../http/openapi/types.ts';
import { MAX_INBOUND_BYTES } from '../../inbound/parse.ts';

export const operations: Operation[] = [
  {
    method: 'post',
    path: '/v1/inbound-email/',
    tag: 'E-mail',
    auth: false,
    summary: 'Hand a received e-mail (raw MIME) to Rollcall; for hosted mail providers',
    description: 'Authenticated by `INBOUND_EMAIL_SECRET` in `Authorization: Bearer <secret>` or `X-Inbound-Secret`. Replies to an agent inbox become agent messages. Off (403 `inbound_email_disabled`) without INBOUND_EMAIL_SECRET.',
    rawBody: {
      contentType: 'message/rfc822',
      description: `The received message as raw MIME (RFC 5322), at most ${MAX_INBOUND_BYTES / (1024 * 1024)} MiB (413 \`payload_too_large\` past it, refused before it is read when Content-Length says so); any content type but JSON is read as MIME.`,
      schema: { type: 'string', maxLength: MAX_INBOUND_BYTES },
    },
    responses: {
      202: { type: 'object', properties: { accepted: { type: 'boolean' }, routed: { type: 'boolean' }, route: { type: ['string', 'null'] }, from: { type: 'string' }, subject: { type: 'string' }, message_id: { type: ['string', 'null'] } } },
      400: 'Error',
      401: 'Error',
      403: 'Error',
      413: 'Error',
      415: 'Error',
    },
  },
];
