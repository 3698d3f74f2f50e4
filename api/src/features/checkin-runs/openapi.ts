import type { Operation } from '../../http/openapi/types.ts';

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
    responses: { 303: null, 400: html, 403: html, 404: html, 409: html },
  },
];
