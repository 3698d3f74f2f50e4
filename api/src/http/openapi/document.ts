import { matrixRowOf, takesExchangeToken } from '../../auth/method-matrix.ts';
import { baseSchemas, ref } from './components.ts';
import type { Operation, OperationExample } from './types.ts';
import type { JsonSchema } from './yup-to-json-schema.ts';
import { yupToJsonSchema } from './yup-to-json-schema.ts';

const STANDARD_ERRORS: Record<number, string> = {
  400: 'Bad request: `{detail, code, extra?}`, or a field map for body validation; `credential_ambiguous` when a request sends both X-API-KEY and a Bearer token',
  401: 'Missing or invalid credential (`credential_absent`, `credential_malformed`, `credential_expired`, `invalid_credentials`)',
  403: 'Refused (role, plan or credential kind; `insufficient_scope` for an agent, organization or scoped key on what governs the organization)',
  404: 'Absent, or not visible to the caller (same body)',
  429: 'Hourly budget exhausted (`throttled`, with Retry-After)',
};

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** How every list pages (lib/page.ts, CONTRACT §2): declared on each list operation, so typed clients can send them. */
const PAGING = [
  { name: 'page', description: 'The page to read, from 1 (with page_size)', schema: { type: 'integer', minimum: 1 } },
  { name: 'page_size', description: 'Items per page, 1–100 (default 50)', schema: { type: 'integer', minimum: 1, maximum: 100 } },
  { name: 'limit', description: 'Items to read, 1–100 (default 50), with offset instead of page', schema: { type: 'integer', minimum: 1, maximum: 100 } },
  { name: 'offset', description: 'Items to skip (with limit)', schema: { type: 'integer', minimum: 0 } },
];

/** A list: its answer is the `{count, next, previous, results}` envelope. */
function isList(op: Operation): boolean {
  const ok = op.responses[200];
  const properties = typeof ok === 'object' && ok !== null ? (ok.properties as Record<string, unknown> | undefined) : undefined;
  return op.method === 'get' && !!properties && Object.hasOwn(properties, 'results') && Object.hasOwn(properties, 'next');
}

/** The operation's id in the document, and the name of its example file (api/src/openapi/examples/<id>.json). */
export const operationId = (op: { method: string; path: string; operationId?: string }) =>
  op.operationId ?? `${op.method}_${op.path.replace(/[/:{}-]+/g, '_').replace(/^_|_$/g, '')}`;

/** `GET /v1/teams/:uuid/`: how people and failure messages name an operation. */
export const operationName = (op: { method: string; path: string }) => `${op.method.toUpperCase()} ${op.path}`;

/** The credentials an operation takes, from the method matrix: only what differs from the document's default (both). */
function security(op: Operation) {
  if (op.auth === false) return { security: [] };
  const row = matrixRowOf(op.path);
  if (!row || (row.apiKey && row.cli)) return {};
  return { security: row.apiKey ? [{ ApiKey: [] }] : [{ CliBearer: [] }] };
}

const EXCHANGE_TOKEN_HEADER = {
  name: 'X-Exchange-Token',
  in: 'header',
  required: false,
  description: 'An exchange token (POST /v1/exchange-token/): an admin\'s request acts as the member it names.',
  schema: { type: 'string' },
};

function response(schema: string | JsonSchema | null, description: string, mediaType = 'application/json', example?: unknown) {
  if (schema === null) return { description };
  const content = typeof schema === 'string' ? ref(schema) : schema;
  return { description, content: { [mediaType]: { schema: content, ...(example === undefined ? {} : { example }) } } };
}

/** The request body: JSON from the route's yup schema, or a raw body (inbound e-mail), with its example. */
function requestBody(op: Operation, example: OperationExample | undefined) {
  const sample = example?.request === undefined ? {} : { example: example.request.body };
  if (op.body) return { required: true, content: { 'application/json': { schema: yupToJsonSchema(op.body), ...sample } } };
  if (op.rawBody) {
    return {
      required: true,
      ...(op.rawBody.description ? { description: op.rawBody.description } : {}),
      content: { [op.rawBody.contentType]: { schema: op.rawBody.schema, ...sample } },
    };
  }
  return null;
}

export interface DocumentOptions {
  tags?: { name: string; description: string }[];
  /** Recorded exchanges by operationId (api/src/openapi/examples/). */
  examples?: Record<string, OperationExample>;
  /** Appended to info.description (the Plan's beta notes). */
  moreDescription?: string;
  /** The API's version: the newest changelog entry. */
  version?: string;
}

export function buildOpenApi(
  operations: Operation[],
  extraSchemas: Record<string, JsonSchema>,
  serverUrl: string,
  { tags = [], examples = {}, moreDescription = '', version = '1.0.0' }: DocumentOptions = {},
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
    const declared = op.query ?? [];
    const paging = isList(op) ? PAGING.filter((p) => !declared.some((q) => q.name === p.name)) : [];
    // A list's own `page_size` (the delta feed's) is the same integer as every list's.
    const schemaOf = (q: { name: string; schema?: JsonSchema }) => q.schema ?? PAGING.find((p) => p.name === q.name)?.schema ?? { type: 'string' };
    const query = [...declared, ...paging].map((q) => ({ name: q.name, in: 'query', description: q.description, schema: schemaOf(q) }));
    const id = operationId(op);
    const exampleId = Object.hasOwn(examples, id) || !op.alias ? id : operationId({ method: op.method, path: op.alias });
    const example = Object.hasOwn(examples, exampleId) ? examples[exampleId] : undefined;
    const headers = (op.headers ?? []).map((h) => ({ name: h.name, in: 'header', description: h.description, required: h.required ?? false, schema: { type: 'string' } }));
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(op.responses)) {
      const sample = example && String(example.response.status) === status ? example.response.body : undefined;
      const success = Number(status) < 400;
      responses[status] = response(schema, Number(status) === 204 ? 'No content' : success ? 'Success' : 'Error', success ? (op.responseType ?? 'application/json') : 'application/json', sample);
    }
    for (const [status, description] of Object.entries({ ...STANDARD_ERRORS, ...op.errors })) {
      if (op.auth === false && (status === '401' || status === '403')) continue;
      if (!responses[status]) {
        responses[status] = response(status === '400' ? { oneOf: [ref('Error'), ref('FieldErrors')] } : 'Error', description);
      }
    }
    paths[path] ??= {};
    const body = requestBody(op, example);
    paths[path][op.method] = {
      operationId: id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      ...security(op),
      ...(op.scope ? { 'x-rate-limit-scope': op.scope } : {}),
      ...op.extensions,
      parameters: [...params, ...query, ...headers, ...(takesExchangeToken(op.method.toUpperCase(), op.path) ? [EXCHANGE_TOKEN_HEADER] : [])],
      ...(body ? { requestBody: body } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Rollcall API',
      version,
      description:
        'Self-hosted team check-ins and agent reporting. Every path also answers without its trailing slash. ' +
        'Lists answer `{count, next, previous, results}` (page/page_size or limit/offset; default 50, max 100).' +
        moreDescription,
    },
    servers: [{ url: serverUrl }],
    ...(tags.length ? { tags: inOperationOrder(operations, tags) } : {}),
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'An API key. Send one credential: X-API-KEY and a Bearer token together answer 400 `credential_ambiguous`.' },
        CliBearer: { type: 'http', scheme: 'bearer', description: 'Token from the CLI one-time-password sign-in' },
      },
      schemas: { ...baseSchemas, ...extraSchemas },
    },
    security: [{ ApiKey: [] }, { CliBearer: [] }],
    paths,
  };
}

/**
 * Every tag, in the order of the operations (Swagger UI lists the declared tags first, in their order): a
 * section's description no longer pulls it to the top of the reference.
 */
function inOperationOrder(operations: Operation[], described: { name: string; description: string }[]): { name: string; description?: string }[] {
  const names = [...new Set([...operations.flatMap((op) => (op.tag ? [op.tag] : [])), ...described.map((tag) => tag.name)])];
  return names.map((name) => described.find((tag) => tag.name === name) ?? { name });
}
