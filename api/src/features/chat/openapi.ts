import type { Operation } from '../../http/openapi/types.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { openConversationSchema, sendMessageSchema } from './schema.ts';

const tag = 'Messaging';
export const operations: Operation[] = [
  {
    method: 'post', path: '/v1/send-message/', tag, scope: 'messaging',
    summary: 'Send a bot message to users, teams and channels of the connected chat platform',
    description: 'At least one target. `thread_responses` are posted as replies in the message’s thread; `bot_message_id` of an earlier message edits it (Slack, Discord) or posts the new text (Teams, Google Chat). `skip_users_on_time_off` leaves out the target users on time off today (PATCH /v1/users/{uuid}/ `time_off`), each in their own time zone. 400 `platform_not_connected` when no platform is connected.',
    body: sendMessageSchema,
    responses: { 200: { type: 'object', properties: { bot_message_id: { type: 'string', format: 'uuid' }, thread_responses: { type: 'array', items: { type: 'string' } }, targets: { type: 'integer' } } }, 400: 'Error' },
  },
  { method: 'post', path: '/v1/open-conversation/', tag, scope: 'messaging', summary: 'Open a direct conversation with users; answers its channel id', body: openConversationSchema, responses: { 200: { type: 'object', properties: { channel: { type: 'string' } } }, 400: 'Error' } },
  {
    method: 'get', path: '/v1/integrations/', tag: 'Chat platforms', scope: 'reads', summary: 'The chat connection as the admin screen shows it: can people answer through it, the URLs to paste, who was not found (admins)',
    description: '`can_receive` is false (with the reason in `problem`) while no platform is connected, for a platform connected with an incoming webhook, and for a Slack connection without its signing secret (it still sends). `request_urls` are the URLs to paste into the platform\'s app settings, from PUBLIC_URL (else the address the request reached); `url_problem` says when they are not https. `people_not_found`: people whose e-mail matches no account of the workspace (they get their prompts by e-mail only).',
    responses: { 200: 'IntegrationStatus' },
  },
  {
    method: 'post', path: '/v1/integrations/test-prompt/', tag: 'Chat platforms', scope: 'messaging', summary: 'Send a test prompt to me, as a direct message (admins)',
    description: 'A prompt with one question and an "Answer" button that opens the answer form; answering it saves nothing. It goes through the delivery outbox (GET /v1/deliveries/?channel=chat shows it). 400 `platform_not_connected`, or `platform_without_direct_messages` for a platform connected with an incoming webhook.',
    responses: { 202: { type: 'object', properties: { queued: { type: 'boolean' }, bot_message_id: { type: 'string', format: 'uuid' }, platform: { type: 'string' }, to: { type: 'string' } } }, 400: 'Error' },
  },
  { method: 'get', path: '/v1/report-channels/', tag, scope: 'reads', summary: 'Channels of the connected chat platform that reports can go to (none while no platform is connected)', responses: { 200: 'ReportChannels', 502: 'Error' } },
];

const nullableString = { type: ['string', 'null'] };
export const schemas: Record<string, JsonSchema> = {
  IntegrationStatus: {
    type: 'object',
    properties: {
      platform: { enum: ['slack', 'microsoft_teams', 'discord', 'google_chat', 'mattermost', null] },
      label: nullableString,
      can_receive: { type: 'boolean' },
      problem: nullableString,
      workspace: nullableString,
      request_urls: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, url: { type: 'string', format: 'uri' } } } },
      url_problem: nullableString,
      manifest_url: { type: ['string', 'null'], format: 'uri' },
      people_not_found: {
        type: 'array',
        items: { type: 'object', properties: { uuid: { type: 'string', format: 'uuid' }, first_name: { type: 'string' }, last_name: { type: 'string' }, email: { type: 'string' }, looked_up_at: { type: 'string', format: 'date-time' } } },
      },
    },
  },
  ReportChannels: {
    type: 'object',
    properties: {
      channels: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, platform: { enum: ['slack', 'microsoft_teams', 'discord', 'google_chat', 'mattermost'] }, type: { type: 'string' } } } },
      total: { type: 'integer' },
    },
  },
};
