import { baseSchemas, ref } from './components.ts';
import type { Operation } from './types.ts';
import type { JsonSchema } from './yup-to-json-schema.ts';
import { yupToJsonSchema } from './yup-to-json-schema.ts';

const STANDARD_ERRORS: Record<number, string> = {
  400: 'Bad request: `{detail, code, extra?}`, or a field map for body validation',
  401: 'Missing or invalid credential (`credential_absent`, `credential_malformed`, `credential_expired`, `invalid_credentials`)',
  403: 'Refused (role, plan or credential kind)',
  404: 'Absent, or not visible to the caller (same body)',
  429: 'Hourly budget exhausted (`throttled`, with Retry-After)',
};

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function response(schema: string | JsonSchema | null, description: string) {
  if (schema === null) return { description };
  const content = typeof schema === 'string' ? ref(schema) : schema;
  return { description, content: { 'application/json': { schema: content } } };
}

export function buildOpenApi(
  operations: Operation[],
  extraSchemas: Record<string, JsonSchema>,
  serverUrl: string,
  tags: { name: string; description: string }[] = [],
  moreDescription = '',
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const path = toOpenApiPath(op.path);
    const params = [...op.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const query = (op.query ?? []).map((q) => ({ name: q.name, in: 'query', description: q.description, schema: q.schema ?? { type: 'string' } }));
    const headers = (op.headers ?? []).map((h) => ({ name: h.name, in: 'header', description: h.description, required: h.required ?? false, schema: { type: 'string' } }));
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(op.responses)) {
      responses[status] = response(schema, Number(status) === 204 ? 'No content' : 'Success');
    }
    if (op.responseContent) {
      responses[op.responseContent.status] = { description: 'The file', content: { [op.responseContent.type]: { schema: op.responseContent.schema } } };
    }
    for (const [status, description] of Object.entries({ ...STANDARD_ERRORS, ...op.errors })) {
      if (op.auth === false && (status === '401' || status === '403')) continue;
      if (!responses[status]) {
        responses[status] = response(status === '400' ? { oneOf: [ref('Error'), ref('FieldErrors')] } : 'Error', description);
      }
    }
    paths[path] ??= {};
    paths[path][op.method] = {
      operationId: `${op.method}_${op.path.replace(/[/:{}-]+/g, '_').replace(/^_|_$/g, '')}`,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      ...(op.auth === false ? { security: [] } : {}),
      ...(op.scope ? { 'x-rate-limit-scope': op.scope } : {}),
      ...op.extensions,
      parameters: [...params, ...query, ...headers],
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: yupToJsonSchema(op.body) } } } } : {}),
      ...(op.requestContent ? { requestBody: { required: true, content: { [op.requestContent.type]: { schema: op.requestContent.schema } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Rollcall API',
      version: '1.0.0',
      description:
        'Self-hosted team check-ins and agent reporting. Every path also answers without its trailing slash. ' +
        'Lists answer `{count, next, previous, results}` (page/page_size or limit/offset; default 50, max 100).' +
        moreDescription,
    },
    servers: [{ url: serverUrl }],
    ...(tags.length ? { tags } : {}),
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
        CliBearer: { type: 'http', scheme: 'bearer', description: 'Token from the CLI one-time-password sign-in' },
      },
      schemas: { ...baseSchemas, ...extraSchemas },
    },
    security: [{ ApiKey: [] }, { CliBearer: [] }],
    paths,
  };
}
