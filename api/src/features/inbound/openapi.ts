import type { Operation } from '../../http/openapi/types.ts';

export const operations: Operation[] = [
  {
    method: 'post',
    path: '/v1/inbound-email/',
    tag: 'E-mail',
    auth: false,
    summary: 'Hand a received e-mail (raw MIME) to Rollcall; for hosted mail providers',
    description: 'Body: the raw message (`Content-Type: message/rfc822`). Authenticated by `INBOUND_EMAIL_SECRET` in `Authorization: Bearer <secret>` or `X-Inbound-Secret`. Replies to an agent inbox become agent messages.',
    responses: {
      202: { type: 'object', properties: { accepted: { type: 'boolean' }, routed: { type: 'boolean' }, route: { type: ['string', 'null'] }, from: { type: 'string' }, subject: { type: 'string' }, message_id: { type: ['string', 'null'] } } },
      401: 'Error',
      403: 'Error',
    },
  },
];
