import type { Operation } from '../../http/openapi/types.ts';
import { page } from '../../http/openapi/components.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';

export const schemas: Record<string, JsonSchema> = {
  Template: {
    type: 'object',
    properties: {
      uuid: { type: 'string', format: 'uuid' }, id: { type: 'string', format: 'uuid' }, name: { type: 'string' },
      description: { type: 'string' }, frequency_type: { type: 'string' },
      questions: { type: 'array', items: { type: 'object', properties: { index: { type: 'integer' }, question: { type: 'string' }, short_question: { type: 'string' }, question_type: { enum: ['text', 'multiple_choice', 'boolean', 'numeric'] }, required: { type: 'boolean' }, is_blocker: { type: 'boolean' }, choices: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, value: { type: 'string' } } } } } } },
    },
  },
};

const tag = 'Check-ins';
export const operations: Operation[] = [
  { method: 'get', path: '/v1/templates/', tag, scope: 'reads', summary: 'Built-in check-in templates', query: [{ name: 'search', description: 'Template name, 2–256 characters' }], responses: { 200: page('Template') } },
  { method: 'get', path: '/v1/templates/:uuid/', tag, scope: 'reads', summary: 'One template with its questions', responses: { 200: 'Template' } },
];
