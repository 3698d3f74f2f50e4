import type { AnyObjectSchema } from 'yup';
import type { JsonSchema } from './yup-to-json-schema.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One documented operation; each feature lists its own beside its routes (features/<area>/openapi.ts). */
export interface Operation {
  method: Method;
  /** Koa router form, `:param` for path parameters. */
  path: string;
  summary: string;
  tag: string;
  /** False for the endpoints that take no credential. */
  auth?: boolean;
  /** Hourly budget scope, documented as x-rate-limit-scope. */
  scope?: string;
  /** A JSON request body, by its yup schema (the one the route validates with). */
  body?: AnyObjectSchema;
  /** A request body that is not JSON (raw MIME for inbound e-mail): its media type and schema. */
  rawBody?: { contentType: string; schema: JsonSchema; description?: string };
  query?: { name: string; description: string; schema?: JsonSchema }[];
  /** Request headers the operation reads (beyond the credential). */
  headers?: { name: string; description: string; required?: boolean }[];
  /** Status → schema (a `$ref` name in components, or an inline schema). */
  responses: Record<number, string | JsonSchema | null>;
  /** Media type of the documented (non-error) responses when it is not JSON: `text/html` for /docs. */
  responseType?: string;
  description?: string;
  /** Error statuses this operation documents instead of (or beside) the standard ones: status → description. */
  errors?: Record<number, string>;
  /** Specification extensions (`x-…`) copied onto the operation, e.g. x-beta on Plan operations. */
  extensions?: Record<`x-${string}`, unknown>;
  /** Its operationId when the one made from method and path would be another's (`/v1/agent/health/` and
   * `/v1/agent-health/` both make get_v1_agent_health). */
  operationId?: string;
  /** The path of an operation with the same method that this one answers exactly like (`/v1/followups/` of
   * `/v1/checkins/`): it shows that one's examples. */
  alias?: string;
}

/**
 * A real exchange of the test suite, shown in the OpenAPI document: one file per operation in
 * api/src/openapi/examples/, named by its operationId, written by `npm run examples -w api`.
 */
export interface OperationExample {
  operation: string;
  /** Where it was recorded (test file and test name): the test to change for a better example. */
  source: string;
  request?: { content_type: string; body: unknown };
  response: { status: number; content_type: string; body: unknown };
}
