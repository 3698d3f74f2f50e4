import type { AnyObjectSchema } from 'yup';
import type { PlanScope } from '../../auth/policy.ts';
import type { JsonSchema } from '../openapi/yup-to-json-schema.ts';

/** The spec's Plan minute ceilings, per actor: which one a route counts against. */
export type CeilingKind = 'reads' | 'writes' | 'bulk' | 'delta';
export type WriteMethod = 'post' | 'put' | 'patch' | 'delete';
export type QueryDoc = { name: string; description: string; schema?: JsonSchema };

/** What a Plan route declares; the gate, the OpenAPI document and the scope table read it. */
export interface RouteSpec {
  path: string;
  /** Other paths of the same operation (the DailyBot client's): served by the same handler, named in the OpenAPI description. */
  aliases?: string[];
  summary: string;
  description?: string;
  /** Defaults: GET tasks:read, DELETE tasks:admin, other writes tasks:write (defaultScope). */
  scope?: PlanScope;
  /** Person-only endpoint (me/*, inbox, favorites, personal views): agent and organization keys get 403. */
  person?: boolean;
  /**
   * A structure change (boards, states, projects, goals, memberships, goal links): it needs `tasks:admin`, which
   * only a person holds; agent and organization keys get 403 insufficient_scope with extra.required_scope.
   */
  structure?: boolean;
  /** Query values that need a person, e.g. `{ member: 'me' }`: 400 `actor_required` for agent and organization keys. */
  personQuery?: Record<string, string>;
  /** The minute ceiling counted (default: reads for GET, writes otherwise). */
  ceiling?: CeilingKind;
  /** Answers whether or not the organization has the beta (GET /v1/plan/entitlements/ only). */
  betaExempt?: boolean;
  /** Path parameters that are not uuids (a task's `KEY-n`); every other parameter that is not a uuid is a 404. */
  keyParams?: string[];
  /** OpenAPI: the answer's schema (a components name or an inline schema), and documented query parameters. */
  response?: string | JsonSchema | null;
  query?: QueryDoc[];
  /** OpenAPI: request headers the operation reads beyond the frame's own (If-Match on task writes). */
  headers?: QueryDoc[];
}

export type ReadSpec = RouteSpec;
export interface ListSpec extends RouteSpec {
  /** OpenAPI: the components name of one item. */
  item: string;
  /** OpenAPI: fields the answer carries beside count, next, previous and results. */
  envelope?: Record<string, JsonSchema>;
}
export interface WriteSpec<S extends AnyObjectSchema | undefined> extends RouteSpec {
  method: WriteMethod;
  /** The request body (yup); without one, any body field is refused (`unknown_field`). */
  body?: S;
  /** Success status: 200 by default, 201 for creations, 204 for deletions. */
  status?: number;
  /**
   * Destructive (every DELETE, and archive-like calls that say so): takes `?dry_run=true`; the operation runs in
   * its transaction, answers, and is rolled back.
   */
  destructive?: boolean;
  /** A body that is a JSON array of at most `max` objects, each checked against `schema` (instead of `body`). */
  items?: { schema: AnyObjectSchema; max: number };
  /** Bulk calls refuse a request without Idempotency-Key (`idempotency_key_required`). */
  idempotencyRequired?: boolean;
  /**
   * A destructive write's result fields its dry run also answers at the top (the DailyBot client reads a preview's
   * `refused`, `channel`… there).
   */
  preview?: (result: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * A single multipart request carrying one file (part `file`) and the form's text fields: the file is streamed
 * (never held in memory) and refused past `maxBytes`.
 */
export interface UploadSpec extends RouteSpec {
  /** The form's text fields besides `file` (yup); any other field is `unknown_field`. */
  fields?: AnyObjectSchema;
  maxBytes: number;
  status?: number;
}

/** One Plan operation as documented: the route's declaration with its defaults resolved. */
export interface PlanOperation {
  method: 'get' | WriteMethod;
  path: string;
  aliases: string[];
  tag: string;
  summary: string;
  description?: string;
  scope: PlanScope;
  ceiling: CeilingKind;
  person: boolean;
  structure: boolean;
  personQuery: Record<string, string>;
  betaExempt: boolean;
  destructive: boolean;
  idempotency: 'none' | 'optional' | 'required';
  body?: AnyObjectSchema;
  items?: { schema: AnyObjectSchema; max: number };
  status: number;
  response: string | JsonSchema | null;
  list: boolean;
  /** A list's fields beside its envelope's own. */
  envelope?: Record<string, JsonSchema>;
  query: QueryDoc[];
  headers: QueryDoc[];
  keyParams: string[];
  /** A multipart upload of one file (its limit), or a file download. */
  upload?: { maxBytes: number; fields?: AnyObjectSchema };
  download?: boolean;
}

/**
 * The scope an operation needs unless its route says otherwise: reads tasks:read, writes tasks:write, every
 * DELETE tasks:admin. Boards (create, update, archive), states and members declare tasks:admin themselves.
 */
export function defaultScope(method: string): PlanScope {
  if (method === 'get') return 'tasks:read';
  if (method === 'delete') return 'tasks:admin';
  return 'tasks:write';
}

export function resolveOperation(
  tag: string,
  method: 'get' | WriteMethod,
  spec: RouteSpec & Partial<WriteSpec<AnyObjectSchema | undefined>> & Partial<UploadSpec>,
  list: boolean,
  kind: { upload?: boolean; download?: boolean } = {},
): PlanOperation {
  return {
    method,
    path: spec.path,
    aliases: spec.aliases ?? [],
    tag,
    summary: spec.summary,
    description: spec.aliases?.length ? [spec.description, `Also at ${spec.aliases.map((a) => `\`${a}\``).join(', ')}.`].filter(Boolean).join(' ') : spec.description,
    scope: spec.scope ?? defaultScope(method),
    ceiling: spec.ceiling ?? (method === 'get' ? 'reads' : 'writes'),
    person: spec.person ?? false,
    structure: spec.structure ?? false,
    personQuery: spec.personQuery ?? {},
    betaExempt: spec.betaExempt ?? false,
    destructive: spec.destructive ?? method === 'delete',
    idempotency: method === 'get' ? 'none' : spec.idempotencyRequired ? 'required' : 'optional',
    body: spec.body,
    items: spec.items,
    status: spec.status ?? 200,
    response: list ? { $ref: `#/components/schemas/${(spec as ListSpec).item}` } : spec.response === undefined ? null : spec.response,
    list,
    ...(list && (spec as ListSpec).envelope ? { envelope: (spec as ListSpec).envelope } : {}),
    query: spec.query ?? [],
    headers: spec.headers ?? [],
    keyParams: spec.keyParams ?? [],
    ...(kind.upload ? { upload: { maxBytes: spec.maxBytes ?? 0, fields: spec.fields } } : {}),
    ...(kind.download ? { download: true } : {}),
  };
}
