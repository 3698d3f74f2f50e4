import type { Operation } from '../../http/openapi/types.ts';
import { page } from '../../http/openapi/components.ts';

const tag = 'Service';
const obj = { type: 'object' };
const index = { type: 'object', properties: { name: { type: 'string' }, version: { type: 'string' }, documentation: { type: 'string', format: 'uri' }, openapi: { type: 'string', format: 'uri' }, changelog: { type: 'string', format: 'uri' } } };
export const operations: Operation[] = [
  { method: 'get', path: '/', tag, auth: false, summary: 'Where to start: links to the reference, this document and the changelog', responses: { 200: index } },
  { method: 'get', path: '/v1/', tag, auth: false, summary: 'The same links, under the API prefix', responses: { 200: index } },
  { method: 'get', path: '/healthz', tag, auth: false, summary: 'Liveness: the process answers', responses: { 200: obj } },
  { method: 'get', path: '/readyz', tag, auth: false, summary: 'Readiness: database reachable and migrated', responses: { 200: obj, 503: obj } },
  { method: 'get', path: '/metrics', tag, auth: false, summary: 'Prometheus metrics', responseType: 'text/plain', responses: { 200: { type: 'string' } } },
  { method: 'get', path: '/v1/openapi.json', tag, auth: false, summary: 'This OpenAPI 3.1 document', responses: { 200: obj } },
  { method: 'get', path: '/docs', tag, auth: false, summary: 'Interactive API reference (HTML)', responseType: 'text/html', responses: { 200: { type: 'string' } } },
  { method: 'get', path: '/docs/init.js', tag, auth: false, summary: 'Script of the reference page', responseType: 'application/javascript', responses: { 200: { type: 'string' } } },
  {
    method: 'get', path: '/docs/static/:file', tag, auth: false, summary: 'Assets of the reference page (swagger-ui.css, swagger-ui-bundle.js, favicon-32x32.png)',
    responseType: '*/*', responses: { 200: { type: 'string', format: 'binary' } },
  },
  {
    method: 'get', path: '/v1/changelog/', tag, auth: false, summary: 'The API changelog, newest first',
    responses: { 200: page('ChangelogEntry') },
  },
  {
    method: 'get', path: '/v1/platform/status/', tag, scope: 'reads', summary: 'Server version and enabled features (API keys only)',
    responses: { 200: 'PlatformStatus' },
  },
];

export const schemas = {
  ChangelogEntry: {
    type: 'object',
    properties: { version: { type: 'string' }, date: { type: 'string', format: 'date' }, title: { type: 'string' }, changes: { type: 'array', items: { type: 'string' } } },
  },
  PlatformStatus: {
    type: 'object',
    properties: { version: { type: 'string' }, organization: obj, features: { type: 'object', additionalProperties: { type: 'boolean' } } },
  },
};
