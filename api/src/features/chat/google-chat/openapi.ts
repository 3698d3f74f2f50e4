import type { Operation } from '../../../http/openapi/types.ts';
import { EVENTS_PATH } from './requests.ts';

export const operations: Operation[] = [
  {
    method: 'post', path: EVENTS_PATH, tag: 'Chat platforms', auth: false,
    headers: [{ name: 'Authorization', description: '`Bearer <JWT>` Google Chat signs (RS256) for the app\'s project number', required: true }],
    summary: 'Google Chat app endpoint: "Answer" opens the answer dialog, "Save" saves, a direct message answers one question at a time',
    description: 'Called by Google Chat, not by clients: authenticated by its token (`Authorization: Bearer`, an RS256 JWT checked against Google Chat\'s keys, GOOGLE_CHAT_KEYS_URL: the key id, issuer `chat@system.gserviceaccount.com`, audience the connected app\'s project number, expiry with 5 minutes of skew); no API key. No token answers 401 `credential_absent`, an unreadable one `credential_malformed`, an expired one or a request already taken (the same token and body) `credential_expired`, any other `invalid_credentials`; a click or save on another person\'s prompt 403 `not_your_prompt`. Nothing happens on a refusal. `CARD_CLICKED` on "Answer" answers the dialog (`actionResponse.type: DIALOG`, one input per question, `q.<question uuid>`, filled with the day\'s answers); "Save" saves through the responses service (the web page\'s rules, events and edit window) and answers `actionStatus` `OK`, or `INVALID_ARGUMENT` with the problem (the dialog stays open). A `MESSAGE` in the direct message answers the prompt one question at a time (`skip`, `edit`). Other events answer `{}`.',
    rawBody: { contentType: 'application/json', description: 'The Google Chat event as Chat sends it.', schema: { type: 'object' } },
    responses: { 200: { type: 'object' }, 400: 'Error', 401: 'Error', 403: 'Error', 413: 'Error', 503: 'Error' },
  },
];
