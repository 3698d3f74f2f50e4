import type { Operation } from '../../http/openapi/types.ts';
import { page, ref } from '../../http/openapi/components.ts';
import * as yup from 'yup';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { yupToJsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { CHECKIN_BASES } from './routes.ts';
import { addQuestionSchema, createCheckinSchema, editResponseSchema, reorderQuestionsSchema, responseSchema, settingsFields, STORED_SETTINGS, updateCheckinSchema, updateQuestionSchema } from './schema.ts';

const str = { type: 'string' };
const bool = { type: 'boolean' };
const uuid = { type: 'string', format: 'uuid' };
const dateTime = { type: 'string', format: 'date-time' };
const date = { type: 'string', format: 'date' };

/** The settings a detail shows (each as the create body takes it; never set, the default of STORED_SETTINGS). */
const storedSettings = yupToJsonSchema(
  yup.object(Object.fromEntries(Object.keys(STORED_SETTINGS).filter((name) => Object.hasOwn(settingsFields, name)).map((name) => [name, settingsFields[name as keyof typeof settingsFields]]))),
).properties as Record<string, JsonSchema>;

const itemProperties = {
  uuid, id: uuid, name: str, active: bool, is_archived: bool, frequency_type: str,
  frequency_on_days: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 7 }, description: 'ISO weekdays, 7 = Sunday' },
  schedule: { type: 'object', properties: { days: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 6 }, description: '0 = Sunday … 6 = Saturday' }, time: str, timezone: str } },
  is_anonymous: bool, template_uuid: { type: ['string', 'null'] }, participants_count: { type: 'integer' },
  start_on: { type: ['string', 'null'], format: 'date' }, end_on: { type: ['string', 'null'], format: 'date' }, created_at: dateTime,
};

export const schemas: Record<string, JsonSchema> = {
  CheckinQuestion: {
    type: 'object',
    properties: {
      uuid, id: uuid, index: { type: 'integer' }, question: str, short_question: { type: ['string', 'null'] },
      question_type: { enum: ['text', 'multiple_choice', 'boolean', 'numeric'] }, required: bool, is_blocker: bool,
      choices: { type: 'array', items: { type: 'object', properties: { label: str, value: str } } },
      variations: { type: 'array', items: str },
      logic: { type: ['object', 'null'], description: '{"show_if": {"question_index": N, "equals": value}}: asked only when question N was answered with value (one of the picks, for multiple choice)' },
      multiple: { type: 'boolean', description: 'multiple_choice: several picks (an array of choice values) instead of one (a string)' },
      min: { type: ['number', 'null'], description: 'numeric: the lowest answer taken' }, max: { type: ['number', 'null'], description: 'numeric: the highest answer taken' },
      presentation: { enum: ['scale', 'mood', null], description: 'numeric: asked as a scale of whole numbers from min to max (default 1–5), or a mood from 1 to 5' },
      min_label: { type: ['string', 'null'], description: 'scale or mood: the word at the low end' }, max_label: { type: ['string', 'null'], description: 'scale or mood: the word at the high end' },
    },
  },
  CheckinListItem: {
    type: 'object',
    properties: {
      ...itemProperties,
      response_completed: { type: 'boolean', description: 'include_summary: the caller answered that day' },
      summary: {
        type: 'object', description: 'include_summary',
        properties: {
          date, participants: { type: 'integer' }, responded: { type: 'integer' }, pending: { type: 'integer' },
          away: { type: 'integer', description: 'Of the pending, on time off that day' },
          holiday: { type: 'integer', description: 'Of the pending, on a public holiday of their calendar (their own, else the check-in\'s holiday_calendar), not away' },
          existed: { type: 'boolean', description: 'False for a day before the check-in was created (its local day): nobody could have been asked' },
        },
      },
      pending_users: { type: 'array', items: ref('UserRef'), description: 'include_pending_users (empty on anonymous check-ins)' },
      away_users: { type: 'array', items: ref('UserRef'), description: 'include_pending_users: the pending on time off that day (empty on anonymous check-ins)' },
      holiday_users: { type: 'array', items: ref('UserRef'), description: 'include_pending_users: the pending on a public holiday that day, not away (empty on anonymous check-ins)' },
    },
  },
  CheckinDetail: {
    type: 'object',
    description: 'The list item plus every setting of the create body, questions, participants and report channels.',
    properties: {
      ...itemProperties,
      ...storedSettings,
      archived_at: { type: ['string', 'null'], format: 'date-time' }, allow_past_responses: bool, allow_future_responses: bool,
      questions: { type: 'array', items: ref('CheckinQuestion') },
      participants: { type: 'object', properties: { users: { type: 'array', items: ref('UserRef') }, teams: { type: 'array', items: { type: 'object', properties: { uuid, name: str } } } } },
      report_channels: { type: 'array', items: { type: 'object', properties: { id: str, name: { type: ['string', 'null'] }, platform: { type: ['string', 'null'] }, type: { type: ['string', 'null'] } } } },
      created_by: { oneOf: [ref('UserRef'), { type: 'null' }] }, updated_at: dateTime,
    },
  },
  CheckinResponse: {
    type: 'object',
    properties: {
      uuid, id: uuid, followup_uuid: uuid, user: { oneOf: [ref('UserRef'), { type: 'null' }], description: 'null on anonymous check-ins' },
      response_date: date, response_completed: bool, has_issue: bool, last_question_index: { type: ['integer', 'null'] },
      created_at: dateTime, updated_at: dateTime,
      responses: { type: 'array', items: { type: 'object', properties: { uuid, index: { type: 'integer' }, question: str, response: {} } } },
    },
  },
  CheckinBlocker: {
    type: 'object',
    description: 'A blocker reported in the answer to a blocker question (is_blocker), open until resolved.',
    properties: {
      uuid, id: uuid, followup_uuid: uuid, user: { oneOf: [ref('UserRef'), { type: 'null' }], description: 'null on anonymous check-ins' },
      question_uuid: uuid, question: str, text: { type: 'string', description: 'what the person said blocks them' },
      state: { enum: ['open', 'resolved'] }, opened_on: date, opened_at: dateTime,
      resolved_on: { type: ['string', 'null'], format: 'date' }, resolved_at: { type: ['string', 'null'], format: 'date-time' },
      resolved_by: { oneOf: [ref('UserRef'), { type: 'null' }] }, days_open: { type: 'integer', description: 'whole days from opened_on to resolved_on, or to today in the check-in\'s time zone' },
    },
  },
};

const tag = 'Check-ins';
const q = (name: string, description: string) => ({ name, description });
const RANGE = [q('date_start', 'From this day (YYYY-MM-DD); aliases start_date, since'), q('date_end', 'To this day (YYYY-MM-DD); aliases end_date, until')];

const NAME_CONFLICT = '`checkin_name_conflict`: another live check-in of the organization has this name (case aside); `extra.uuid` names it.';

function operationsFor(base: string): Operation[] {
  const alias = base === '/v1/followups' ? ' (alias of /v1/checkins/)' : '';
  return [
    {
      method: 'get', path: `${base}/`, tag, scope: 'reads', summary: `List check-ins${alias}`,
      query: [q('search', 'Name, 2–256 characters'), q('include_archived', 'true also lists archived check-ins'), q('active', 'true or false'), q('date', 'The day the summary counts (YYYY-MM-DD; default each check-in\'s today)'), q('include_summary', 'true adds response_completed and summary'), q('include_pending_users', 'true adds pending_users')],
      responses: { 200: page('CheckinListItem') },
    },
    { method: 'post', path: `${base}/create/`, tag, scope: 'writes', summary: `Create a check-in (admins and managers)${alias}`, body: createCheckinSchema, responses: { 201: 'CheckinDetail' }, errors: { 409: NAME_CONFLICT } },
    { method: 'get', path: `${base}/:uuid/`, tag, scope: 'reads', summary: `One check-in${alias}`, responses: { 200: 'CheckinDetail' } },
    { method: 'get', path: `${base}/:uuid/detail/`, tag, scope: 'reads', summary: `One check-in with questions, participants and report channels${alias}`, responses: { 200: 'CheckinDetail' } },
    { method: 'patch', path: `${base}/:uuid/config/`, tag, scope: 'writes', summary: `Change settings, schedule, participants or questions (admins and managers)${alias}`, body: updateCheckinSchema, responses: { 200: 'CheckinDetail' }, errors: { 409: NAME_CONFLICT } },
    { method: 'delete', path: `${base}/:uuid/archive/`, tag, scope: 'writes', summary: `Archive a check-in (admins and managers)${alias}`, responses: { 204: null } },
    { method: 'post', path: `${base}/:uuid/questions/`, tag, scope: 'writes', summary: `Add a question${alias}`, body: addQuestionSchema, responses: { 201: 'CheckinQuestion' } },
    { method: 'put', path: `${base}/:uuid/questions/reorder/`, tag, scope: 'writes', summary: `Reorder questions with {question_uuids} or {order}${alias}`, body: reorderQuestionsSchema, responses: { 200: { type: 'object', properties: { questions: { type: 'array', items: ref('CheckinQuestion') } } } } },
    { method: 'patch', path: `${base}/:uuid/questions/:question/`, tag, scope: 'writes', summary: `Edit a question${alias}`, body: updateQuestionSchema, responses: { 200: 'CheckinQuestion' } },
    { method: 'delete', path: `${base}/:uuid/questions/:question/delete/`, tag, scope: 'writes', summary: `Delete a question${alias}`, responses: { 204: null } },
    {
      method: 'get', path: `${base}/:uuid/responses/`, tag, scope: 'reads', summary: `Response history, newest first${alias}`,
      description:
        "Whose responses come back: admins and managers read every check-in's; a participant reads all of the check-in's, as its team report shows them, unless its privacy is private; anyone else (a former participant) only their own. An anonymous check-in never names an author.",
      query: [...RANGE, q('user', "A user uuid: that person's responses, when the caller reads them (none otherwise); refused on anonymous check-ins unless it is the caller")], responses: { 200: page('CheckinResponse') },
    },
    { method: 'post', path: `${base}/:uuid/responses/`, tag, scope: 'writes', summary: `Answer for today or response_date (one per day, check-in time zone)${alias}`, body: responseSchema, responses: { 201: 'CheckinResponse' } },
    { method: 'put', path: `${base}/:uuid/responses/`, tag, scope: 'writes', summary: `Edit your response for today or response_date${alias}`, body: editResponseSchema, responses: { 200: 'CheckinResponse' } },
    { method: 'delete', path: `${base}/:uuid/responses/`, tag, scope: 'writes', summary: `Reset your responses for date_start…date_end (default today)${alias}`, query: RANGE, responses: { 204: null } },
    {
      method: 'get', path: `${base}/:uuid/blockers/`, tag, scope: 'reads', summary: `Blockers reported in answers, open ones longest open first${alias}`,
      description: 'Whose blockers come back is whose responses the caller reads (GET …/responses/). An anonymous check-in never names the person.',
      query: [q('state', 'open or resolved (default both)'), q('user', "A user uuid: that person's blockers, when the caller reads them")], responses: { 200: page('CheckinBlocker') },
    },
    {
      method: 'post', path: `${base}/:uuid/blockers/:blocker/resolve/`, tag, scope: 'writes', summary: `Resolve a blocker (the person blocked, an admin or a manager)${alias}`,
      description: 'Fires checkin.blocker.resolved. Resolving a blocker already resolved answers it as it is.', responses: { 200: 'CheckinBlocker' },
    },
  ];
}

/** /v1/followups/ answers as /v1/checkins/ does, and shows its examples. */
export const operations: Operation[] = CHECKIN_BASES.flatMap(operationsFor).map((op) =>
  op.path.startsWith('/v1/followups/') ? { ...op, alias: op.path.replace('/v1/followups/', '/v1/checkins/') } : op,
);
