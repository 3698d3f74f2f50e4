import type { Operation } from '../../http/openapi/types.ts';
import { page } from '../../http/openapi/components.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { companyValueSchema, giveKudosSchema, kudosSettingsSchema, updateCompanyValueSchema } from './schema.ts';

const str = { type: 'string' };
const int = { type: 'integer' };
const uuid = { type: 'string', format: 'uuid' };
const dateTime = { type: 'string', format: 'date-time' };
const nullableStr = { type: ['string', 'null'] };
const person = { type: 'object', properties: { uuid, full_name: str, image: nullableStr } };
const valueRef = { type: 'object', properties: { id: uuid, value: str, emoji: nullableStr } };
const standing = {
  type: ['object', 'null'],
  properties: { user: person, kudos_received: int, kudos_given: int, total_plus_kudos_received: int, total_plus_kudos_given: int },
};

export const schemas: Record<string, JsonSchema> = {
  Kudos: {
    type: 'object',
    properties: {
      uuid, id: uuid, content: str, is_anonymous: { type: 'boolean' },
      giver: { oneOf: [person, { type: 'null' }], description: 'null on anonymous kudos, for everyone' },
      receivers: { type: 'array', items: person, description: 'Teams already expanded to their active members, the giver left out' },
      teams: { type: 'array', items: { type: 'object', properties: { uuid, name: str } } },
      company_value: { oneOf: [{ ...valueRef, properties: { ...valueRef.properties, uuid } }, { type: 'null' }] },
      boosts_count: int, boosted: { type: 'boolean', description: 'The caller boosted it' }, created_at: dateTime,
    },
  },
  CompanyValue: { type: 'object', properties: { uuid, id: uuid, value: str, emoji: nullableStr, description: nullableStr, created_at: dateTime } },
  KudosSettings: {
    type: 'object',
    properties: {
      daily_limit: { type: 'integer', description: 'Kudos one person may give per day of the organization\'s time zone (default 10)' },
      chat_announcements: { type: 'boolean' }, chat_channel: { ...nullableStr, description: 'Slack channel id for announcements; unset: a DM to each receiver' },
      given_today: int, remaining_today: int,
    },
  },
  WallOfFame: {
    type: 'object',
    properties: {
      period: { enum: ['week', 'month', 'quarter', 'year', 'all'] }, period_start: { type: ['string', 'null'], format: 'date-time' },
      top_receiver: standing, top_giver: standing,
      dna_distribution: { type: 'array', items: { type: 'object', properties: { company_value: valueRef, count: int, percentage: { type: 'number' } } } },
      leaderboard: {
        type: 'object',
        properties: {
          count: int, next: { type: ['string', 'null'], format: 'uri' }, previous: { type: ['string', 'null'], format: 'uri' },
          results: { type: 'array', items: { type: 'object', properties: { position: int, user: person, score: int, total_plus_kudos: int } } },
        },
      },
      leaderboard_summary: { type: 'object', properties: { position: { type: ['integer', 'null'] }, total: int } },
    },
  },
};

const tag = 'Kudos';
const q = (name: string, description: string) => ({ name, description });
const LIST = [q('since', 'From this day (YYYY-MM-DD, the organization\'s time zone); alias start_date'), q('until', 'To this day; alias end_date'), q('date', 'One day'), q('search', 'Text of the kudos, 2–256 characters'), q('company_value', 'A company value uuid')];

export const operations: Operation[] = [
  { method: 'get', path: '/v1/kudos/', tag, scope: 'reads', summary: 'Your kudos, newest first: given, received, or both', query: [q('filter', 'kudos_received or kudos_given (default both)'), ...LIST], responses: { 200: page('Kudos') } },
  {
    method: 'post', path: '/v1/kudos/', tag, scope: 'writes', summary: 'Give kudos to people and teams',
    description: 'Teams expand to their active members, the giver left out. 400 `self_kudos` when you name yourself; 406 `kudos_daily_limit` past the organization\'s daily limit per giver.',
    body: giveKudosSchema, responses: { 201: 'Kudos', 400: 'Error', 406: 'Error' },
  },
  { method: 'get', path: '/v1/kudos/organization/', tag, scope: 'reads', summary: 'Every kudos of the organization (admins)', query: [...LIST, q('giver', 'A user uuid (never matches anonymous kudos)'), q('receiver', 'A user uuid')], responses: { 200: page('Kudos') } },
  { method: 'get', path: '/v1/kudos/timeline/', tag, scope: 'reads', summary: 'The organization\'s kudos feed, newest first', query: [...LIST, q('receiver', 'A user uuid')], responses: { 200: page('Kudos') } },
  { method: 'get', path: '/v1/kudos/wall-of-fame/', tag, scope: 'reads', summary: 'Top receiver and giver, company-value distribution and the leaderboard over a period', query: [q('period', 'week, month (default), quarter, year or all'), q('limit', 'Leaderboard page size (also offset, page, page_size)')], responses: { 200: 'WallOfFame' } },
  { method: 'get', path: '/v1/kudos/settings/', tag, scope: 'reads', summary: 'The daily limit and how many kudos you have left today', responses: { 200: 'KudosSettings' } },
  { method: 'patch', path: '/v1/kudos/settings/', tag, scope: 'writes', summary: 'Set the daily limit and chat announcements (admins)', body: kudosSettingsSchema, responses: { 200: 'KudosSettings' } },
  { method: 'get', path: '/v1/kudos/:uuid/', tag, scope: 'reads', summary: 'One kudos', responses: { 200: 'Kudos' } },
  { method: 'post', path: '/v1/kudos/:uuid/boost/', tag, scope: 'writes', summary: 'Boost a kudos (once per person; 400 self_boost on your own, 409 already_boosted)', responses: { 201: 'Kudos', 400: 'Error', 409: 'Error' } },
  { method: 'get', path: '/v1/company-values/', tag, scope: 'reads', summary: 'The organization\'s company values', responses: { 200: page('CompanyValue') } },
  { method: 'post', path: '/v1/company-values/', tag, scope: 'writes', summary: 'Add a company value (admins; 409 company_value_exists)', body: companyValueSchema, responses: { 201: 'CompanyValue' } },
  { method: 'get', path: '/v1/company-values/:uuid/', tag, scope: 'reads', summary: 'One company value', responses: { 200: 'CompanyValue' } },
  { method: 'patch', path: '/v1/company-values/:uuid/', tag, scope: 'writes', summary: 'Change a company value (admins)', body: updateCompanyValueSchema, responses: { 200: 'CompanyValue' } },
  { method: 'delete', path: '/v1/company-values/:uuid/', tag, scope: 'writes', summary: 'Delete a company value (admins; its kudos keep no value)', responses: { 204: null } },
];

