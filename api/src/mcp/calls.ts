import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, unknownField } from '../lib/errors.ts';
import type { JsonSchema } from '../http/openapi/yup-to-json-schema.ts';
import { yupToJsonSchema } from '../http/openapi/yup-to-json-schema.ts';
import type { RestAnswer, RestCall } from './dispatch.ts';
import type { Tool } from './tools.ts';

/** A tool's input schema: its path parameters (required), its query parameters, and its body's schema, generated from the route's yup schema. */
export function inputSchema(tool: Tool): JsonSchema {
  const body = tool.body ? yupToJsonSchema(tool.body) : {};
  const properties: Record<string, unknown> = {};
  for (const p of [...(tool.params ?? []), ...(tool.query ?? []), ...(tool.headerArgs ?? [])]) properties[p.name] = { type: p.type ?? 'string', description: p.description };
  for (const [name, schema] of Object.entries((body.properties as Record<string, unknown> | undefined) ?? {})) {
    if (Object.hasOwn(properties, name)) throw new Error(`MCP tool ${tool.name}: the body field ${name} has the name of a parameter`);
    properties[name] = schema;
  }
  const required = [...(tool.params ?? []).map((p) => p.name), ...((body.required as string[] | undefined) ?? [])];
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

const scalar = (value: unknown): string | null =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;

/**
 * The REST call a tool's arguments stand for: path parameters into the path, query parameters into the query
 * string, everything else into the body (where the route's own validation judges it: an unknown field is the
 * route's `unknown_field`). A tool without a body refuses any other argument the same way.
 */
export function restCall(tool: Tool, args: Record<string, unknown>): RestCall | RestAnswer {
  const params = new Map((tool.params ?? []).map((p) => [p.name, p]));
  const queryNames = new Set((tool.query ?? []).map((q) => q.name));
  const headerArgs = new Map((tool.headerArgs ?? []).map((h) => [h.name, h.header]));
  const headers: Record<string, string> = {};
  const query: Record<string, string> = { ...tool.fixedQuery };
  const body: Record<string, unknown> = {};
  const missing: Record<string, string[]> = {};
  let path = tool.path;
  for (const name of params.keys()) {
    const value = Object.hasOwn(args, name) ? scalar(args[name]) : null;
    if (value === null || value === '') missing[name] = ['This field is required.'];
    else path = path.replace(`:${name}`, encodeURIComponent(value));
  }
  if (Object.keys(missing).length > 0) return { status: 400, body: missing, headers: {} };
  for (const [name, value] of Object.entries(args)) {
    if (params.has(name)) continue;
    if (headerArgs.has(name)) {
      const text = scalar(value);
      if (text === null) return { status: 400, body: { [name]: ['Must be a string or a number.'] }, headers: {} };
      headers[headerArgs.get(name)!] = text;
      continue;
    }
    if (queryNames.has(name)) {
      const text = Array.isArray(value) ? value.map(scalar).join(',') : scalar(value);
      if (text === null) return { status: 400, body: { [name]: ['Must be a string, a number or a boolean.'] }, headers: {} };
      query[name] = text;
    } else if (tool.body) {
      Object.defineProperty(body, name, { value, enumerable: true, writable: true, configurable: true });
    } else {
      return refusal(unknownField(name));
    }
  }
  return { method: tool.method, path, query, headers, ...(tool.body ? { body } : {}) };
}

const refusal = (err: ApiError): RestAnswer => ({ status: err.status, body: { detail: err.message, code: err.code, ...(err.extra ? { extra: err.extra } : {}) }, headers: {} });

/** A successful answer: the REST body as structured content (a bare list as `results`), and one line of text. */
export function toolResult(tool: Tool, answer: RestAnswer): CallToolResult {
  const body = answer.body;
  const structured = (Array.isArray(body) ? { count: body.length, results: body } : body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  return { content: [{ type: 'text', text: tool.summary(structured) }], structuredContent: structured };
}

/**
 * A refusal of the API as a tool error (`isError`), carrying the API's `code` and `detail` for an agent to branch
 * on, its `extra`, and for a 429 `retry_after` (seconds). A 400 that lists fields (`{"field": ["message"]}`, the
 * REST body of a validation failure) is `validation_error`, with the fields.
 */
export function toolError(answer: RestAnswer): CallToolResult {
  const body = (answer.body && typeof answer.body === 'object' && !Array.isArray(answer.body) ? answer.body : {}) as Record<string, unknown>;
  const retryAfter = answer.headers['retry-after'] !== undefined ? Number(answer.headers['retry-after']) : undefined;
  let error: Record<string, unknown>;
  if (typeof body.code === 'string') {
    error = { status: answer.status, code: body.code, detail: String(body.detail ?? ''), ...(body.extra ? { extra: body.extra } : {}) };
  } else if (answer.status === 400) {
    const fields = Object.entries(body).map(([name, messages]) => `${name}: ${Array.isArray(messages) ? messages.join(' ') : String(messages)}`);
    error = { status: 400, code: 'validation_error', detail: fields.join('; ') || 'The arguments are not valid.', fields: body };
  } else {
    error = { status: answer.status, code: answer.status === 429 ? 'throttled' : 'error', detail: String(body.detail ?? `HTTP ${answer.status}`), extra: body };
  }
  if (retryAfter !== undefined && Number.isFinite(retryAfter)) error.retry_after = retryAfter;
  const text = `${error.code} (${answer.status}): ${error.detail}${error.retry_after !== undefined ? ` Retry in ${error.retry_after} seconds.` : ''}`;
  return { isError: true, content: [{ type: 'text', text }], structuredContent: error };
}
