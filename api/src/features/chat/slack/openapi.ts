import type { Operation } from '../../../http/openapi/types.ts';
import { REQUEST_PATHS } from './requests.ts';

const tag = 'Chat platforms';
const signed = 'Called by Slack, not by clients: authenticated by Slack\'s signature (`X-Slack-Request-Timestamp`, `X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:{timestamp}:{raw body}" with the app\'s signing secret>`), compared in constant time; no API key. A missing signature answers 401 `credential_absent`, a malformed one `credential_malformed`, a timestamp more than 5 minutes from now or a request already taken (the same signature again) `credential_expired`, one no connection\'s signing secret made `invalid_credentials`; a request from another Slack workspace than the connection\'s answers 403 `workspace_not_connected`. Nothing happens on a refusal. What the request asks is saved before the answer (well within Slack\'s 3 seconds); messages to Slack afterwards go through the delivery outbox.';
const headers = [
  { name: 'X-Slack-Request-Timestamp', description: 'Unix seconds when Slack sent the request', required: true },
  { name: 'X-Slack-Signature', description: '`v0=` and the hex HMAC-SHA256 of `v0:{timestamp}:{raw body}` with the signing secret', required: true },
];
const errors = { 400: 'Error', 401: 'Error', 403: 'Error', 413: 'Error' } as const;
const form = (description: string) => ({ contentType: 'application/x-www-form-urlencoded', description, schema: { type: 'string', maxLength: 1024 * 1024 } });

export const operations: Operation[] = [
  {
    method: 'post', path: REQUEST_PATHS.events, tag, auth: false, headers,
    summary: 'Slack Events API request URL: the URL check, messages in the app\'s direct conversation, the App Home opened',
    description: `${signed} \`url_verification\` answers \`{challenge}\`. \`message.im\`: a person's reply answers their prompt one question at a time (\`skip\`, \`edit\`). \`app_home_opened\`: their check-ins of today are published to the App Home. Other events are acknowledged (an empty 200). An event Slack sends again (same \`event_id\`) does nothing more.`,
    rawBody: { contentType: 'application/json', description: 'The Events API body as Slack sends it.', schema: { type: 'object' } },
    responses: { 200: { type: 'object', properties: { challenge: { type: 'string' } } }, ...errors, 503: 'Error' },
  },
  {
    method: 'post', path: REQUEST_PATHS.interactions, tag, auth: false, headers,
    summary: 'Slack interactivity request URL: the "Answer" and "Edit" buttons open the answer modal; submitting it saves',
    description: `${signed} \`block_actions\` on an answer button opens the modal (\`views.open\` with the click's trigger_id, while the request waits; a click on another person's prompt answers 403 \`not_your_prompt\`). \`view_submission\` saves through the responses service (the web page's rules, events and edit window) and answers \`{response_action: "clear"}\`, or \`{response_action: "errors", errors: {"q.<question uuid>": "…"}}\`, or \`{response_action: "update", view}\` with a notice (the report went out; the check-in was archived).`,
    rawBody: form('`payload`: the interaction as JSON, as Slack sends it.'),
    responses: { 200: { type: 'object', properties: { response_action: { enum: ['clear', 'errors', 'update'] }, errors: { type: 'object' }, view: { type: 'object' } } }, ...errors, 503: 'Error' },
  },
  {
    method: 'post', path: REQUEST_PATHS.commands, tag, auth: false, headers,
    summary: 'Slack slash command request URL: /rollcall, /rollcall status, /rollcall kudos @someone message, /rollcall help',
    description: `${signed} Answers an ephemeral message (\`{response_type: "ephemeral", text}\`), errors included; \`/rollcall\` alone also opens the person's next check-in of today in the modal.`,
    rawBody: form('The slash command\'s form fields as Slack sends them (`team_id`, `user_id`, `command`, `text`, `trigger_id`, …).'),
    responses: { 200: { type: 'object', properties: { response_type: { enum: ['ephemeral'] }, text: { type: 'string' } } }, ...errors, 503: 'Error' },
  },
  {
    method: 'get', path: '/v1/integrations/slack/manifest/', tag, scope: 'reads',
    summary: 'The Slack app manifest with this server\'s request URLs filled in (admins)',
    description: 'Paste it at api.slack.com/apps › Create New App › From a manifest: the bot scopes, the App Home, events, interactivity and the `/rollcall` command. The URLs come from PUBLIC_URL (else the address the request reached); Slack needs https URLs it can reach.',
    responses: { 200: { type: 'object' } },
  },
];

export const tags = [{ name: tag, description: 'Answering check-ins in the chat platform: the request URLs the platform calls, its app manifest, the connection\'s state (docs/chat.md).' }];
