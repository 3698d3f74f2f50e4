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
  /** Hourly budget scope (CONTRACT §5), documented as x-rate-limit-scope. */
  scope?: string;
  body?: AnyObjectSchema;
  /** A request body that is not JSON (a multipart upload): its media type and schema. */
  requestContent?: { type: string; schema: JsonSchema };
  /** An answer that is not JSON (a file download): its status, media type and schema. */
  responseContent?: { status: number; type: string; schema: JsonSchema };
  query?: { name: string; description: string; schema?: JsonSchema }[];
  /** Request headers the operation reads (beyond the credential). */
  headers?: { name: string; description: string; required?: boolean }[];
  /** Status → schema (a `$ref` name in components, or an inline schema). */
  responses: Record<number, string | JsonSchema | null>;
  description?: string;
  /** Error statuses this operation documents instead of (or beside) the standard ones: status → description. */
  errors?: Record<number, string>;
  /** Specification extensions (`x-…`) copied onto the operation, e.g. x-beta on Plan operations. */
  extensions?: Record<`x-${string}`, unknown>;
}
