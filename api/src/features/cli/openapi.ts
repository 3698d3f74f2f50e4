import type { Operation } from '../../http/openapi/types.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { ref, str, uuid } from '../../http/openapi/components.ts';
import { standupUpdateSchema } from './schema.ts';

const tag = 'Command-line client';
const date = { type: 'string', format: 'date' };

export const schemas: Record<string, JsonSchema> = {
  CliManifest: {
    type: 'object',
    properties: {
      latest_version: str,
      minimum_version: { type: 'string', description: 'The oldest rollcall client this server still serves.' },
      download_url: { type: ['string', 'null'], description: 'CLI_DOWNLOAD_URL, or null when the operator has not set one.' },
      changelog: { type: 'string', description: 'The newest entry of GET /v1/changelog/, as text.' },
    },
  },
  CliPendingCheckins: {
    type: 'object',
    properties: {
      pending_checkins: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            followup_uuid: uuid, followup_name: str, date: { ...date, description: 'The day the answer is for, in the check-in\'s time zone.' },
            template_questions: { type: 'array', items: ref('CheckinQuestion') },
          },
        },
      },
    },
  },
  CliStandupUpdate: {
    type: 'object',
    properties: {
      followups_count: { type: 'integer' },
      attached_followups: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            followup_uuid: uuid, followup_name: str, date, action: { enum: ['created', 'updated'] },
            response_completed: { type: 'boolean', description: 'Every required question has an answer: the day counts as answered.' },
            unanswered_questions: {
              type: 'array', description: 'The required questions still without an answer (the check-in stays pending until they have one).',
              items: { type: 'object', properties: { uuid, index: { type: 'integer' }, question: str } },
            },
          },
        },
      },
      detail: str,
    },
  },
};

export const operations: Operation[] = [
  { method: 'get', path: '/v1/cli/updates/', tag, scope: 'reads', summary: 'The command-line client\'s update manifest', responses: { 200: 'CliManifest' } },
  {
    method: 'post', path: '/v1/cli/updates/', tag, scope: 'writes', body: standupUpdateSchema,
    summary: 'Write a stand-up update into your check-ins scheduled today',
    description: '`done` goes into the first question that is not about blockers, `doing` into the second, `blocked` into the blocker question and `message` into the first; an answer given already gets the lines appended. Each of done, doing and blocked is a text or a list of texts. The update counts as the day\'s answer once every required question has one: `unanswered_questions` lists those still without one.',
    responses: { 200: 'CliStandupUpdate' },
  },
  { method: 'get', path: '/v1/cli/status/', tag, scope: 'reads', summary: 'Your check-ins waiting for an answer today, with their questions', responses: { 200: 'CliPendingCheckins' } },
];
