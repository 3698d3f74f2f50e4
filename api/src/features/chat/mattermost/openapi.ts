import type { Operation } from '../../../http/openapi/types.ts';
import { REQUEST_PATHS } from './requests.ts';

const tag = 'Chat platforms';
const refusals = 'Nothing happens on a refusal: 401 `credential_absent`, `credential_malformed`, `invalid_credentials` or `credential_expired` (a request already taken, a dialog opened more than 30 minutes ago), 403 `not_your_prompt` for another person\'s prompt.';
const errors = { 400: 'Error', 401: 'Error', 403: 'Error', 413: 'Error' } as const;
const json = (description: string) => ({ contentType: 'application/json', description, schema: { type: 'object' } });

export const operations: Operation[] = [
  {
    method: 'post', path: REQUEST_PATHS.actions, tag, auth: false,
    summary: 'Mattermost button URL: "Answer" and "Edit" of a prompt open the answer dialog',
    description: `Called by Mattermost when a person clicks a button of a Rollcall message, not by clients. The button's \`context\` carries what it answers and Rollcall's signature of it (HMAC-SHA256 with the connection's own secret, compared in constant time): no API key. Opens the dialog (\`/api/v4/actions/dialogs/open\` with the click's \`trigger_id\`, while the request waits) and answers \`{}\`, or \`{ephemeral_text}\` with a notice (the report went out, the check-in was archived, the person is unknown). ${refusals}`,
    rawBody: json('The action request as Mattermost sends it (`user_id`, `trigger_id`, `context`, …).'),
    responses: { 200: { type: 'object', properties: { ephemeral_text: { type: 'string' } } }, ...errors },
  },
  {
    method: 'post', path: REQUEST_PATHS.dialogs, tag, auth: false,
    summary: 'Mattermost dialog URL: the answer dialog submitted saves the answers',
    description: `Called by Mattermost when a person submits the answer dialog. Its \`state\` carries what it answers, when it was opened and a nonce, signed by Rollcall: no API key. Saves through the responses service (the web page's rules, events and edit window) and answers \`{}\`, or \`{errors: {"q.<question uuid>": "…"}}\` shown under the fields, or \`{error}\` (the report went out, the check-in was archived). ${refusals}`,
    rawBody: json('The dialog submission as Mattermost sends it (`state`, `user_id`, `submission`, `cancelled`, …).'),
    responses: { 200: { type: 'object', properties: { errors: { type: 'object' }, error: { type: 'string' } } }, ...errors },
  },
  {
    method: 'post', path: REQUEST_PATHS.commands, tag, auth: false,
    headers: [{ name: 'Authorization', description: '`Token <the slash command\'s token>`, as Mattermost sends it (else the form\'s `token`)', required: false }],
    summary: 'Mattermost slash command URL: /rollcall, /rollcall status, /rollcall kudos @someone message, /rollcall help',
    description: `Called by Mattermost, authenticated by the slash command's token compared in constant time with the connection's: no API key. A command from another team than the connection's (the first command ties it) answers 403 \`workspace_not_connected\`. Answers an ephemeral message (\`{response_type: "ephemeral", text}\`); \`/rollcall\` alone also opens the person's next check-in of today in the dialog. ${refusals}`,
    rawBody: { contentType: 'application/x-www-form-urlencoded', description: 'The command\'s form fields (`team_id`, `user_id`, `command`, `text`, `trigger_id`, …).', schema: { type: 'string', maxLength: 256 * 1024 } },
    responses: { 200: { type: 'object', properties: { response_type: { enum: ['ephemeral'] }, text: { type: 'string' } } }, ...errors },
  },
];
