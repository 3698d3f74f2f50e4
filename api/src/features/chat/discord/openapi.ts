import type { Operation } from '../../../http/openapi/types.ts';
import { INTERACTIONS_PATH } from './requests.ts';

export const operations: Operation[] = [
  {
    method: 'post', path: INTERACTIONS_PATH, tag: 'Chat platforms', auth: false,
    headers: [
      { name: 'X-Signature-Ed25519', description: 'Discord\'s Ed25519 signature (hex) of the timestamp followed by the raw body, made with the application\'s key', required: true },
      { name: 'X-Signature-Timestamp', description: 'When Discord signed the request (Unix seconds); more than 5 minutes away is refused', required: true },
    ],
    summary: 'Discord interactions endpoint: PING, /rollcall, the Answer and Continue buttons, the answer forms',
    description: 'Called by Discord, not by clients: every interaction is verified against the connected application\'s public key (Ed25519, node:crypto): no API key. A PING answers `{type: 1}` (PONG). `/rollcall answer`, "Answer", "Edit", "Continue" and "Fix my answers" answer a modal (`{type: 9, data}`: at most 5 inputs; a longer check-in goes over several, the parts kept by Rollcall until the last); a modal submitted saves through the responses service (the web page\'s rules, events, webhooks and edit window) in the request, and answers an ephemeral message (`{type: 4, data: {content, flags: 64}}`), as do `/rollcall status`, `kudos`, `link` and `help`. Refused, with nothing done: 401 `credential_absent`, `credential_malformed`, `credential_expired` (a timestamp more than 5 minutes away, or the same interaction again), `invalid_credentials` (no connected application signed it); 403 `workspace_not_connected` (an interaction for another application), `not_your_prompt` (another person\'s prompt).',
    rawBody: { contentType: 'application/json', description: 'The interaction as Discord sends it (`id`, `application_id`, `type`, `data`, `user` or `member`, `token`, …).', schema: { type: 'object' } },
    responses: { 200: { type: 'object', properties: { type: { type: 'integer' }, data: { type: 'object' } } }, 400: 'Error', 401: 'Error', 403: 'Error', 413: 'Error' },
  },
];
