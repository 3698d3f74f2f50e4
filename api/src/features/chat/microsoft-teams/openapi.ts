import type { Operation } from '../../../http/openapi/types.ts';
import { MESSAGES_PATH } from './requests.ts';

const tag = 'Chat platforms';

export const operations: Operation[] = [
  {
    method: 'post', path: MESSAGES_PATH, tag, auth: false,
    headers: [{ name: 'Authorization', description: '`Bearer <JWT>` the Bot Framework signs (RS256) for the bot\'s app id', required: true }],
    summary: 'Microsoft Teams bot messaging endpoint: a prompt card\'s "Save", a person\'s reply in their chat with the bot',
    description: 'Called by the Bot Framework, not by clients: authenticated by its token (`Authorization: Bearer`, an RS256 JWT checked against the keys of the Bot Framework\'s OpenID metadata, TEAMS_OPENID_METADATA_URL: the key id and its endorsement for the channel, issuer `https://api.botframework.com`, audience the connected bot\'s app id, expiry with 5 minutes of skew, `serviceurl` the activity\'s serviceUrl); no API key. No token answers 401 `credential_absent`, an unreadable one `credential_malformed`, an expired one or an activity already taken (same conversation and id) `credential_expired`, any other `invalid_credentials`; an activity from another Microsoft Entra tenant than the connection\'s answers 403 `workspace_not_connected`, a "Save" on another person\'s prompt 403 `not_your_prompt`. Nothing happens on a refusal. A `message` whose `value` carries the card\'s inputs (`q.<question uuid>`) saves through the responses service (the web page\'s rules, events and edit window); the card then turns "Answered ✓" (through the delivery outbox), and a problem is sent to the person. A text message in the personal chat answers the prompt one question at a time (`skip`, `edit`). Other activities are acknowledged.',
    rawBody: { contentType: 'application/json', description: 'The Bot Framework activity as Teams sends it.', schema: { type: 'object' } },
    responses: { 200: { type: 'object' }, 400: 'Error', 401: 'Error', 403: 'Error', 413: 'Error', 503: 'Error' },
  },
];
