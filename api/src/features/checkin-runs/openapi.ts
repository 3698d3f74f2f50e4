import type { Operation } from '../../http/openapi/types.ts';
import { dateTime, nullableStr, page, str, uuid } from '../../http/openapi/components.ts';
import { SINCE, UNTIL } from '../../http/query.ts';

const tag = 'Check-ins';
const html = { type: 'string', contentMediaType: 'text/html' };
const description =
  'The page a check-in prompt links to, served by the API (HTML, works without JavaScript). The token in the path grants answering one check-in for one person on one day, and editing that answer until the day\'s report is sent; it expires 12 hours after that day ends. A wrong or expired token answers 404 with a page that says so. Sends `Content-Security-Policy` and `X-Frame-Options: DENY`; the form carries an anti-forgery value matched against a same-site cookie. Language: `?lang=en|es|pt`, else `Accept-Language`.';

export const operations: Operation[] = [
  {
    method: 'get', path: '/checkins/answer/:token', tag, auth: false, summary: 'The web answer page of a check-in prompt', description, responseType: 'text/html',
    query: [{ name: 'lang', description: 'en, es or pt (default: from Accept-Language)' }],
    responses: { 200: html, 404: html },
  },
  {
    method: 'post', path: '/checkins/answer/:token', tag, auth: false, summary: 'Save the answers of the web answer page (an HTML form)', description, responseType: 'text/html',
    rawBody: {
      contentType: 'application/x-www-form-urlencoded',
      description: 'The page\'s form: `form_key` (the anti-forgery value) and one `q.<question uuid>` per question (repeated for each choice of a multiple-choice question; `yes`/`no` for a yes/no question).',
      schema: { type: 'string', maxLength: 256 * 1024 },
    },
    responses: { 200: html, 400: html, 403: html, 404: html, 409: html },
  },
  {
    method: 'get', path: '/v1/checkins/:uuid/runs/', tag, scope: 'reads', summary: 'Each day the check-in ran: who was asked and reminded, who answered, the reports, with delivery status',
    description: 'Newest day first, paginated. Admins and managers. Each prompt and report lists its outbox deliveries (e-mail, chat) with their status, and each prompt whether the chat platform found the person (`chat_account`). An anonymous check-in\'s days say how many answered, not who.',
    query: [...SINCE, ...UNTIL].map((name) => ({ name, description: 'YYYY-MM-DD (the run\'s local day)' })),
    responses: { 200: page('CheckinRunDay') },
  },
  {
    method: 'post', path: '/v1/checkins/:uuid/answer-link/', tag, scope: 'writes', summary: 'A web answer link for the caller\'s answer of today',
    description: 'The same link a prompt e-mail carries: it answers this check-in for the caller, today (their own day with use_participant_timezone), and expires 12 hours after that day ends. `rollcall checkins today` shows one per check-in waiting for an answer.',
    responses: { 201: 'CheckinAnswerLink' },
  },
];

const delivery = {
  type: 'object',
  properties: { uuid, channel: str, kind: str, destination: str, status: str, attempts: { type: 'integer' }, last_error: nullableStr, delivered_at: { type: ['string', 'null'], format: 'date-time' } },
};
const nullableTime = { type: ['string', 'null'], format: 'date-time' };

export const schemas = {
  CheckinRunDay: {
    type: 'object',
    properties: {
      date: { type: 'string', format: 'date' },
      asked: { type: 'integer' },
      answered: { type: 'integer' },
      prompts: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            uuid, user: { type: 'object', properties: { uuid, full_name: str } }, timezone: str, prompted_at: dateTime, reminders_sent: { type: 'integer' },
            last_reminded_at: nullableTime, next_reminder_at: nullableTime, answered: { type: ['boolean', 'null'] }, answered_at: nullableTime,
            chat_account: { enum: ['found', 'not_found', null], description: 'Whether the chat platform (Slack) has an account with the person\'s e-mail: `not_found` people get no direct message. Null: not looked up yet, or no platform with direct messages.' },
            deliveries: { type: 'array', items: delivery },
          },
        },
      },
      reports: {
        type: 'array',
        items: { type: 'object', properties: { uuid, one_by_one: { type: 'boolean' }, user_uuid: { type: ['string', 'null'] }, sent_at: dateTime, destinations: { type: 'array', items: str }, deliveries: { type: 'array', items: delivery } } },
      },
    },
  },
  CheckinAnswerLink: {
    type: 'object',
    properties: { followup_uuid: uuid, followup_name: str, response_date: { type: 'string', format: 'date' }, url: { type: 'string', format: 'uri' }, expires_at: dateTime },
  },
};
