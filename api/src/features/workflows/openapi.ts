import type { Operation } from '../../http/openapi/types.ts';
import { page, ref } from '../../http/openapi/components.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { createWorkflowSchema, triggerSchema, updateWorkflowSchema } from './schema.ts';

const str = { type: 'string' };
const int = { type: 'integer' };
const uuid = { type: 'string', format: 'uuid' };
const dateTime = { type: 'string', format: 'date-time' };
const nullableTime = { type: ['string', 'null'], format: 'date-time' };
const status = { enum: ['queued', 'running', 'succeeded', 'failed'] };

export const schemas: Record<string, JsonSchema> = {
  Workflow: {
    type: 'object',
    properties: {
      uuid, id: uuid, name: str, description: { type: ['string', 'null'] },
      trigger_type: { enum: ['api_trigger', 'schedule', 'event'] },
      trigger_config: { type: 'object', description: 'schedule: {cron, timezone}; event: {event, match?}; api_trigger: {}' },
      actions: { type: 'array', items: { type: 'object', description: 'send_message {message, target_users, target_channels, target_teams}; send_email {to, subject, body_html}; http_request {url, method, content_type, body, headers (values hidden)}' } },
      active: { type: 'boolean' }, total_runs: int, last_run_at: nullableTime, created_at: dateTime, updated_at: dateTime,
      signing_secret: { type: 'string', description: 'Standard Webhooks secret of its http_request actions: only in the create answer' },
    },
  },
  WorkflowRun: {
    type: 'object',
    properties: {
      uuid, id: uuid, workflow_uuid: uuid, status, trigger: { enum: ['api_trigger', 'schedule', 'event'] }, event: { type: ['string', 'null'] },
      payload: { type: 'object' }, triggered_by: { type: ['string', 'null'], format: 'uuid' }, created_at: dateTime, started_at: nullableTime, finished_at: nullableTime,
      actions: {
        type: 'array',
        items: {
          type: 'object',
          properties: { index: int, type: str, status, destination: { type: ['string', 'null'] }, deliveries: int, attempts: int, last_status_code: { type: ['integer', 'null'] }, error: { type: ['string', 'null'] }, finished_at: nullableTime },
        },
      },
      log: { type: 'array', items: { type: 'object', properties: { timestamp: dateTime, level: { enum: ['info', 'warn', 'error'] }, message: str } } },
    },
  },
  WorkflowQueued: { type: 'object', properties: { queued: { const: true }, workflow_uuid: uuid, run_uuid: uuid, detail: str } },
};

const tag = 'Workflows';
export const operations: Operation[] = [
  { method: 'get', path: '/v1/workflows/', tag, scope: 'reads', summary: 'List workflows', query: [{ name: 'trigger_type', description: 'api_trigger, schedule or event' }, { name: 'active', description: 'true or false' }, { name: 'search', description: 'Name, 2–256 characters' }], responses: { 200: page('Workflow') } },
  {
    method: 'post', path: '/v1/workflows/', tag, scope: 'writes', summary: 'Create a workflow (admins)',
    description: 'Action text fields are Mustache templates over `{payload, event, workflow, run}` (variables and one level of sections; no partials or unescaped tags).',
    body: createWorkflowSchema, responses: { 201: 'Workflow' },
  },
  { method: 'get', path: '/v1/workflows/:uuid/', tag, scope: 'reads', summary: 'One workflow', responses: { 200: 'Workflow' } },
  { method: 'patch', path: '/v1/workflows/:uuid/', tag, scope: 'writes', summary: 'Change a workflow (admins; actions replace the list)', body: updateWorkflowSchema, responses: { 200: 'Workflow' } },
  { method: 'delete', path: '/v1/workflows/:uuid/', tag, scope: 'writes', summary: 'Delete a workflow and its runs (admins)', responses: { 204: null } },
  {
    method: 'post', path: '/v1/workflows/:uuid/trigger/', tag, scope: 'workflow_triggers', summary: 'Run an api_trigger workflow with a payload (≤ 8 KiB)',
    description: '400 `workflow_not_triggerable` for schedule and event workflows, `workflow_inactive` when turned off; 429 past the workflow-trigger budget.',
    body: triggerSchema, responses: { 202: 'WorkflowQueued', 400: 'Error', 429: 'Error' },
  },
  { method: 'get', path: '/v1/workflows/:uuid/runs/', tag, scope: 'reads', summary: 'Runs, newest first, with status, per-action results and a log', responses: { 200: page('WorkflowRun') } },
  { method: 'get', path: '/v1/workflows/:uuid/runs/:run/', tag, scope: 'reads', summary: 'One run', responses: { 200: ref('WorkflowRun') } },
];
