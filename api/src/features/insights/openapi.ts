import type { Operation } from '../../http/openapi/types.ts';
import { ref, str, uuid } from '../../http/openapi/components.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { DEFAULT_PERIOD_DAYS, MAX_PERIOD_DAYS } from './service.ts';
import { CHECKIN_BASES } from './routes.ts';

const int = { type: 'integer' };
const rate = { type: ['number', 'null'], minimum: 0, maximum: 1 };
const num = { type: ['number', 'null'] };
const date = { type: 'string', format: 'date' };
const named = { type: 'object', properties: { uuid, id: uuid, name: str } };

/** The numbers every level has: overall, each day, each person. */
const rates: Record<string, JsonSchema> = {
  expected: { ...int, description: 'Days someone was asked (a prompt), or answered without being asked' },
  answered: { ...int, description: 'Of those, days answered in full (every required question)' },
  answered_on_time: { ...int, description: 'Answered before the first reminder and within the day asked' },
  participation_rate: { ...rate, description: 'answered ÷ expected; null when nothing was expected' },
  on_time_rate: { ...rate, description: 'answered_on_time ÷ answered; null when nothing was answered' },
  average_minutes_to_answer: { ...num, description: 'From the prompt to the first save, over answers to a prompt' },
};

export const schemas: Record<string, JsonSchema> = {
  Insights: {
    type: 'object',
    description: 'Participation, streaks, mood, blockers and aggregated answers of a period (docs/checkins.md, "Insights").',
    properties: {
      checkin: { ...named, description: 'GET …/checkins/{uuid}/insights/' },
      team: { ...named, description: 'GET /v1/teams/{uuid}/insights/' },
      from: date,
      to: date,
      timezone: { ...str, description: "The time zone of the period's days: the check-in's (a team's: the organization's)" },
      scope: { enum: ['all', 'own'], description: 'all: everyone (admins and managers); own: the caller\'s numbers only' },
      checkins: { type: 'array', items: { type: 'object', properties: { uuid, id: uuid, name: str, timezone: str, is_anonymous: { type: 'boolean' } } } },
      ...rates,
      days: { type: 'array', items: { type: 'object', properties: { date, ...rates, blockers_reported: int } } },
      people: {
        type: 'array',
        description: 'Empty on anonymous check-ins (except the caller\'s own, when only their own is shown)',
        items: { type: 'object', properties: { user: ref('UserRef'), ...rates, current_streak: int, longest_streak: int } },
      },
      mood: {
        type: 'object',
        properties: {
          source: { enum: ['questions', 'tracked'], description: 'questions: the check-in\'s mood questions; tracked: moods of /v1/mood/track/' },
          average: num,
          count: int,
          days: { type: 'array', items: { type: 'object', properties: { date, average: { type: 'number' }, count: int } } },
        },
      },
      blockers: { type: 'object', properties: { source: { enum: ['answers'] }, reported: int, resolved: { type: ['integer', 'null'] } } },
      questions: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            uuid, checkin_uuid: uuid, index: int, question: str, question_type: { enum: ['numeric', 'boolean', 'multiple_choice'] },
            presentation: { type: ['string', 'null'], enum: ['scale', 'mood', null] },
            answered: int, mean: num, min: num, max: num,
            distribution: { type: ['array', 'null'], items: { type: 'object', properties: { value: {}, count: int } } },
            days: { type: ['array', 'null'], items: { type: 'object', properties: { date, mean: { type: 'number' }, count: int } } },
          },
        },
      },
    },
  },
};

const tag = 'Insights';
const PERIOD = [
  { name: 'from', description: `First day (YYYY-MM-DD; aliases since, start_date). Default: ${DEFAULT_PERIOD_DAYS} days before to` },
  { name: 'to', description: `Last day (YYYY-MM-DD; aliases until, end_date). Default: today. At most ${MAX_PERIOD_DAYS} days in all` },
];
const WHO = 'Admins and managers see everyone\'s numbers; anyone else only their own. 400 invalid_date_range for an unreadable day, from after to, or a longer period.';

export const tags = [{ name: tag, description: 'How check-ins are going: participation, streaks, mood, blockers and answers, and the answers as CSV.' }];

function operationsFor(base: string): Operation[] {
  const alias = base === '/v1/followups' ? ' (alias of /v1/checkins/)' : '';
  return [
    { method: 'get', path: `${base}/:uuid/insights/`, tag, scope: 'reads', summary: `Insights of a check-in over a period${alias}`, description: WHO, query: PERIOD, responses: { 200: 'Insights' } },
    {
      method: 'get', path: `${base}/:uuid/responses/export/`, tag, scope: 'reads', summary: `The answers of a period as CSV${alias}`,
      description: `One line per person and day, oldest first; a cell that would start a spreadsheet formula begins with an apostrophe. ${WHO}`,
      query: PERIOD, responseType: 'text/csv', responses: { 200: { type: 'string' } },
    },
  ];
}

export const operations: Operation[] = [
  ...CHECKIN_BASES.flatMap(operationsFor).map((op) => (op.path.startsWith('/v1/followups/') ? { ...op, alias: op.path.replace('/v1/followups/', '/v1/checkins/') } : op)),
  { method: 'get', path: '/v1/teams/:uuid/insights/', tag, scope: 'reads', summary: "Insights of a team across the check-ins it takes part in (its members' answers)", description: WHO, query: PERIOD, responses: { 200: 'Insights' } },
];
