import type { Operation } from '../../http/openapi/types.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { page, ref } from '../../http/openapi/components.ts';
import { agentEmailSchema, claimSchema, healthSchema, messageSchema, readSchema, registerSchema, reportSchema, webhookDeleteSchema, webhookSchema } from './schema.ts';

const tag = 'Agents';
const str = { type: 'string' };
const dateTime = { type: 'string', format: 'date-time' };
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' };
const agentName = { name: 'agent_name', description: 'The exact agent name (1–128 characters of the attribution alphabet).' };

/** The walkthrough summary shown as the tag's description (docs/agents.md has the full curl session). */
const tagDescription = [
  'AI agents and automation are first-class callers. An agent is named by `agent_name` (1–128 characters: letters,',
  "digits, space and `. - _ ( ) ' # + / & , :`) and is created on its first report or health check. Every call",
  'takes `X-API-KEY` or a CLI `Authorization: Bearer` token and counts against the agent-scoped hourly budget.',
  '',
  'Walkthrough (full curl session in docs/agents.md):',
  '1. Report: `POST /v1/agent-reports/` `{agent_name, content, structured?: {completed, in_progress, blockers}, co_authors?: [uuid or e-mail]}`;',
  '   the report is merged into each co-author\'s stand-up for today with " (co-authored with <agent_name>)".',
  '2. Health: `POST /v1/agent-health/` `{agent_name, ok, message?}` at the start of work and every 15–30 minutes; the answer',
  '   carries `pending_messages`, handed out once (they count as delivered from then on).',
  '3. Messages: a person sends `POST /v1/agent-messages/` `{agent_name, content}`; the agent reads',
  '   `GET /v1/agent-messages/?agent_name=…&delivered=false` (a bare array) and marks them `POST /v1/agent-messages/read/` `{message_ids}`.',
  '4. E-mail: `POST /v1/agent-email/send/` `{agent_name, to, subject, body_html}` → `{sent_count, total_recipients, reply_to}`;',
  '   replies to `reply_to` arrive as messages with `message_type: email` and `metadata: {from, subject, message_id}`. 50 per agent per hour by default (429 `{detail, limit, current}`).',
  '5. Webhook: `POST /v1/agent-webhook/` `{agent_name, webhook_url, webhook_secret}`; every new message is POSTed as',
  '   `{event: "agent.message", message}` with `X-Webhook-Secret` (and Standard Webhooks signature headers), delivered on 2xx; at least once (a push may come again with the same `webhook-id`: deduplicate by it).',
  '',
  'Free-plan organizations signed in with the CLI may call reports (50 per day), the messages endpoints, `GET /v1/agent/health/` and',
  'registration and claim. Self-registration (`/v1/agent/register/…`) is off unless AGENT_SELF_REGISTRATION=true.',
].join('\n');
export const tags = [{ name: tag, description: tagDescription }];

const message: JsonSchema = {
  type: 'object',
  required: ['id', 'uuid', 'agent_name', 'sender_name', 'sender_type', 'message_type', 'content', 'metadata', 'delivered', 'created_at'],
  properties: {
    id: str, uuid: str, agent_name: str, sender_name: str,
    sender_type: { enum: ['human', 'agent', 'system'] },
    message_type: { enum: ['text', 'command', 'system', 'email'] },
    content: str,
    metadata: { type: 'object', description: 'E-mail replies: `{from, subject, message_id, in_reply_to, thread_message_id}`.' },
    delivered: { type: 'boolean' }, created_at: dateTime, expires_at: nullableDateTime,
  },
};
const coAuthor: JsonSchema = { type: 'object', properties: { uuid: str, name: str, full_name: str } };
const report: JsonSchema = {
  type: 'object',
  properties: {
    id: str, uuid: str, agent_name: str, content: str, structured: { type: ['object', 'null'] }, metadata: { type: 'object' },
    is_milestone: { type: 'boolean' }, co_authors: { type: 'array', items: ref('AgentCoAuthor') }, created_at: dateTime,
  },
};
const health = (extra: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  properties: {
    agent_name: str,
    status: { enum: ['healthy', 'unhealthy'] },
    last_check_at: nullableDateTime,
    last_check: { ...nullableDateTime, description: 'Same value as last_check_at.' },
    message: str,
    ...extra,
  },
});

export const schemas: Record<string, JsonSchema> = {
  AgentMessage: message,
  AgentCoAuthor: coAuthor,
  AgentReport: report,
  AgentReportCreated: {
    allOf: [
      ref('AgentReport'),
      {
        type: 'object',
        properties: {
          co_authors_unresolved: {
            type: 'array',
            items: str,
            description: 'The `co_authors` identifiers, as sent, that named no active member of the organization: ignored (added in 1.7.0).',
          },
          pending_messages: { type: 'array', items: ref('AgentMessage') },
        },
      },
    ],
  },
  AgentHealth: health({ pending_messages: { type: 'array', items: ref('AgentMessage') } }),
  AgentHealthDetail: health({
    pending_messages: { type: 'array', items: ref('AgentMessage') },
    history: { type: 'array', items: { type: 'object', properties: { timestamp: dateTime, status: str, message: str } } },
  }),
  AgentHealthSummary: health({ pending_count: { type: 'integer' }, webhook_registered: { type: 'boolean' } }),
};

const throttle429 = {
  type: 'object',
  description: 'Hourly agent e-mail limit: `{detail, limit, current}` with Retry-After.',
  properties: { detail: str, limit: { type: 'integer' }, current: { type: 'integer' } },
};

export const operations: Operation[] = [
  {
    method: 'post', path: '/v1/agent-reports/', tag, scope: 'agent', body: reportSchema,
    summary: 'Post an agent report; merged into each co-author\'s stand-up for today',
    description: 'Co-authors are user uuids and/or e-mail addresses, mixed; unknown ones are ignored. Free-plan CLI Bearer callers: 50 per organization per UTC day (429 `free_plan_daily_limit_exceeded`, Retry-After to 00:00 UTC).',
    responses: { 201: 'AgentReportCreated', 429: 'Error' },
  },
  { method: 'get', path: '/v1/agent-reports/', tag, scope: 'agent', summary: 'List agent reports, newest first', query: [agentName], responses: { 200: page('AgentReport') } },
  {
    method: 'post', path: '/v1/agent-health/', tag, scope: 'agent', body: healthSchema,
    summary: 'Health check; the answer carries the pending messages, which then count as delivered',
    responses: { 200: 'AgentHealth' },
  },
  { method: 'get', path: '/v1/agent-health/', tag, scope: 'agent', summary: 'Last health status, pending messages (not delivered by reading) and the last 20 checks', query: [agentName], responses: { 200: 'AgentHealthDetail' } },
  { method: 'get', path: '/v1/agent/health/', operationId: 'get_v1_agent_health_list', tag, scope: 'agent', summary: 'Every agent of the organization with its last status', responses: { 200: page('AgentHealthSummary') } },
  {
    method: 'post', path: '/v1/agent-messages/', tag, scope: 'agent', body: messageSchema,
    summary: 'Send a message to an agent (people: sender_type human, the default); pushed to its webhook if any',
    responses: { 201: 'AgentMessage' },
  },
  {
    method: 'get', path: '/v1/agent-messages/', tag, scope: 'agent', summary: 'Messages of an agent, oldest first (a bare array; expired ones never appear)',
    query: [agentName, { name: 'delivered', description: 'true or false (false: not yet delivered)' }, { name: 'limit', description: '1–100, default 100' }],
    responses: { 200: { type: 'array', items: ref('AgentMessage') } },
  },
  { method: 'post', path: '/v1/agent-messages/read/', tag, scope: 'agent', body: readSchema, summary: 'Mark messages read (and delivered)', responses: { 200: { type: 'object', properties: { updated: { type: 'integer' } } } } },
  { method: 'patch', path: '/v1/agent-messages/read/', tag, scope: 'agent', body: readSchema, summary: 'Mark messages read (same as POST)', responses: { 200: { type: 'object', properties: { updated: { type: 'integer' } } } } },
  {
    method: 'post', path: '/v1/agent-email/send/', tag, scope: 'agent', body: agentEmailSchema,
    summary: 'Send e-mail as an agent; replies to reply_to come back as agent messages',
    description: 'At most 50 recipients and a 512-character subject. HTML is also sent as a text part. Default 50 e-mails per agent per hour.',
    responses: { 201: { type: 'object', properties: { sent_count: { type: 'integer' }, total_recipients: { type: 'integer' }, reply_to: str, message_id: str } }, 429: throttle429 },
  },
  { method: 'post', path: '/v1/agent-webhook/', tag, scope: 'agent', body: webhookSchema, summary: 'Register the agent\'s webhook (https; messages pushed with X-Webhook-Secret)', responses: { 201: { type: 'object', properties: { agent_name: str, webhook_url: str } } } },
  { method: 'delete', path: '/v1/agent-webhook/', tag, scope: 'agent', body: webhookDeleteSchema, summary: 'Unregister the agent\'s webhook (JSON body with agent_name)', responses: { 200: { type: 'object', properties: { detail: str } } } },
  {
    method: 'get', path: '/v1/agent/register/challenge/', tag, auth: false, scope: 'agent',
    summary: 'Self-registration challenge (AGENT_SELF_REGISTRATION=true only)',
    responses: { 200: { type: 'object', properties: { challenge_id: str, instruction: { type: 'string', description: 'Contains "session is <N>."; the answer is N × 52.' }, expires_at: dateTime } } },
  },
  {
    method: 'post', path: '/v1/agent/register/', tag, auth: false, scope: 'agent', body: registerSchema,
    summary: 'Register an agent: a new free-plan organization with an unclaimed agent key',
    description: 'An expired challenge answers 400 `challenge_expired`; a wrong answer 400 `challenge_failed`. The api_key and claim_token are shown once.',
    responses: { 201: { type: 'object', properties: { agent_name: str, agent_email: str, org_name: str, api_key: str, claim_url: str, claim_token: str } } },
  },
  {
    method: 'get', path: '/v1/agent/claim/', tag, auth: false, scope: 'agent',
    summary: 'What a claim_url names, and how to claim it (an HTML page for a browser, JSON otherwise); 404 once claimed',
    query: [{ name: 'claim_token', description: 'Required: from the registration answer (claim_url carries it)' }],
    responses: {
      200: {
        type: 'object',
        properties: {
          agent_name: str, org_name: str, detail: str,
          claim: { type: 'object', properties: { method: { const: 'POST' }, url: str, body: { type: 'object', properties: { claim_token: str } } } },
        },
      },
    },
  },
  {
    method: 'post', path: '/v1/agent/claim/', tag, scope: 'agent', body: claimSchema,
    summary: 'Claim a self-registered agent into the caller\'s organization',
    responses: { 200: { type: 'object', properties: { agent_name: str, organization: { type: 'object', properties: { uuid: str, name: str } }, claimed_at: dateTime } } },
  },
];
