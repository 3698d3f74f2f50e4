import type { Operation } from '../../http/openapi/types.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { trackMoodSchema } from './schema.ts';

const nullableUuid = { type: ['string', 'null'], format: 'uuid' };
export const schemas: Record<string, JsonSchema> = {
  Mood: {
    type: 'object',
    properties: {
      uuid: nullableUuid, id: nullableUuid, user: { $ref: '#/components/schemas/UserRef' }, date: { type: 'string', format: 'date' },
      score: { type: ['integer', 'null'], minimum: 1, maximum: 5 },
      created_at: { type: ['string', 'null'], format: 'date-time' }, updated_at: { type: ['string', 'null'], format: 'date-time' },
      summary: { type: 'object', description: 'Admins and managers: the organization\'s tracked moods that day', properties: { count: { type: 'integer' }, average: { type: ['number', 'null'] } } },
    },
  },
};

const tag = 'Mood';
export const operations: Operation[] = [
  { method: 'get', path: '/v1/mood/track/', tag, scope: 'reads', summary: 'Your mood for a day (default today in your time zone)', query: [{ name: 'date', description: 'YYYY-MM-DD' }], responses: { 200: 'Mood' } },
  { method: 'post', path: '/v1/mood/track/', tag, scope: 'writes', summary: 'Track your mood (1–5) for today or a past day; again the same day replaces it', body: trackMoodSchema, responses: { 200: 'Mood', 201: 'Mood' } },
];
