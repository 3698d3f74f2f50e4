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
  { method: 'get', path: '/v1/report-channels/', tag, scope: 'reads', summary: 'Channels of the connected chat platform that reports can go to (none while no platform is connected)', responses: { 200: 'ReportChannels', 502: 'Error' } },
];

export const schemas: Record<string, JsonSchema> = {
  ReportChannels: {
    type: 'object',
    properties: {
      channels: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, platform: { enum: ['slack', 'microsoft_teams', 'discord', 'google_chat'] }, type: { type: 'string' } } } },
      total: { type: 'integer' },
    },
  },
};
