import type { Operation } from '../../http/openapi/types.ts';
import { page, ref } from '../../http/openapi/components.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { addQuestionSchema, reorderQuestionsSchema, updateQuestionSchema } from '../checkins/schema.ts';
import { createFormSchema, formResponseSchema, transitionRequestSchema, updateFormSchema } from './schema.ts';

const str = { type: 'string' };
const bool = { type: 'boolean' };
const uuid = { type: 'string', format: 'uuid' };
const dateTime = { type: 'string', format: 'date-time' };
const person = { type: ['object', 'null'], properties: { uuid, full_name: str } };

export const schemas: Record<string, JsonSchema> = {
  FormOwner: { type: 'object', properties: { uuid, full_name: str, image: { type: ['string', 'null'] }, role: str } },
  Form: {
    type: 'object',
    properties: {
      uuid, id: uuid, name: str, description: { type: ['string', 'null'] }, form_type: { enum: ['standard', 'approval', 'workflow'] },
      is_public: bool, is_anonymous: bool, is_archived: bool, archived_at: { type: ['string', 'null'], format: 'date-time' },
      owners: { type: 'array', items: ref('FormOwner') },
      states: { type: 'array', items: { type: 'object', properties: { name: str, is_initial: bool, is_final: bool, color: { type: ['string', 'null'] } } } },
      transitions: { type: 'array', items: { type: 'object', properties: { from_state: str, to_state: str, roles: { type: 'array', items: { enum: ['owner', 'admin', 'manager', 'respondent'] } } } } },
      responses_count: { type: 'integer' },
      questions: { type: 'array', items: ref('CheckinQuestion'), description: 'On the detail, and in lists with include=questions' },
      created_at: dateTime, updated_at: dateTime,
    },
  },
  FormResponse: {
    type: 'object',
    properties: {
      uuid, id: uuid, form_uuid: uuid, user: { ...person, description: 'null on anonymous forms' },
      responses: { type: 'array', items: { type: 'object', properties: { uuid, index: { type: 'integer' }, question: str, response: {} } } },
      current_state: { type: ['string', 'null'] }, is_locked: { ...bool, description: 'In a final state: no edit, delete or transition' },
      allowed_transitions: { type: 'array', items: str, description: 'States the caller may move it to' },
      state_history: { type: 'array', items: { type: 'object', properties: { from_state: { type: ['string', 'null'] }, to_state: str, actor: person, note: { type: ['string', 'null'] }, created_at: dateTime } } },
      created_at: dateTime, updated_at: dateTime,
    },
  },
};

const tag = 'Forms';
const q = (name: string, description: string) => ({ name, description });
export const operations: Operation[] = [
  {
    method: 'get', path: '/v1/forms/', tag, scope: 'reads', summary: 'List forms (admins: all; others: public forms and their own)',
    query: [
      q('filter', 'all (default), public, approval, workflow or archived'), q('include', 'questions'), q('include_archived', 'true lists archived forms too'),
      q('owner', 'me'), q('owner_user_ids', 'Owner uuids, comma-separated, at most 50'), q('order', 'name, created_at (default) or updated_at'), q('is_ascend', 'true or false'),
      q('ordering', 'A field, - for descending'), q('search', 'Name, 2–256 characters'),
    ],
    responses: { 200: page('Form') },
  },
  { method: 'get', path: '/v1/forms/form-owners/', tag, scope: 'reads', summary: 'People who own forms you can see', responses: { 200: page('FormOwner') } },
  { method: 'post', path: '/v1/forms/create/', tag, scope: 'writes', summary: 'Create a form (admins and managers)', body: createFormSchema, responses: { 201: 'Form' } },
  { method: 'get', path: '/v1/forms/:uuid/', tag, scope: 'reads', summary: 'One form with its questions', responses: { 200: 'Form' } },
  { method: 'patch', path: '/v1/forms/:uuid/config/', tag, scope: 'writes', summary: 'Change a form (owners and admins; 409 state_in_use, 400 form_anonymity_locked)', body: updateFormSchema, responses: { 200: 'Form' } },
  { method: 'delete', path: '/v1/forms/:uuid/archive/', tag, scope: 'writes', summary: 'Archive a form (owners and admins)', responses: { 204: null } },
  { method: 'post', path: '/v1/forms/:uuid/questions/', tag, scope: 'writes', summary: 'Add a question', body: addQuestionSchema, responses: { 201: 'CheckinQuestion' } },
  { method: 'put', path: '/v1/forms/:uuid/questions/reorder/', tag, scope: 'writes', summary: 'Reorder questions with {question_uuids} or {order}', body: reorderQuestionsSchema, responses: { 200: { type: 'object', properties: { questions: { type: 'array', items: ref('CheckinQuestion') } } } } },
  { method: 'patch', path: '/v1/forms/:uuid/questions/:question/', tag, scope: 'writes', summary: 'Edit a question', body: updateQuestionSchema, responses: { 200: 'CheckinQuestion' } },
  { method: 'delete', path: '/v1/forms/:uuid/questions/:question/delete/', tag, scope: 'writes', summary: 'Delete a question', responses: { 204: null } },
  {
    method: 'get', path: '/v1/forms/:uuid/responses/', tag, scope: 'reads', summary: 'Responses, newest first (owners and admins: all; others: their own)',
    query: [q('user', 'A user uuid (refused on anonymous forms)'), q('since', 'From this day; alias start_date'), q('until', 'To this day; alias end_date'), q('date', 'One day'), q('state', 'A state name')],
    responses: { 200: page('FormResponse') },
  },
  { method: 'post', path: '/v1/forms/:uuid/responses/', tag, scope: 'writes', summary: 'Answer a form', body: formResponseSchema, responses: { 201: 'FormResponse' } },
  { method: 'get', path: '/v1/forms/:uuid/responses/:response/', tag, scope: 'reads', summary: 'One response with its state history', responses: { 200: 'FormResponse' } },
  { method: 'patch', path: '/v1/forms/:uuid/responses/:response/', tag, scope: 'writes', summary: 'Change your answers (409 response_locked in a final state)', body: formResponseSchema, responses: { 200: 'FormResponse' } },
  { method: 'delete', path: '/v1/forms/:uuid/responses/:response/', tag, scope: 'writes', summary: 'Delete a response (author, owners, admins; 409 response_locked)', responses: { 204: null } },
  {
    method: 'post', path: '/v1/forms/:uuid/responses/:response/transition/', tag, scope: 'writes', summary: 'Move a response to another state',
    description: '400 `invalid_transition` (extra.allowed), 403 `transition_not_allowed` for a role the transition does not name, 409 `response_locked` from a final state.',
    body: transitionRequestSchema, responses: { 200: 'FormResponse', 400: 'Error', 403: 'Error', 409: 'Error' },
  },
];
