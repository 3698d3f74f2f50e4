import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AnyObjectSchema, InferType } from 'yup';
import type { Deps } from '../../../deps.ts';
import type { Middlewares } from '../../../http/middlewares.ts';
import { ApiError, ValidationFailed, badRequest, invalidFilter, notFound, unknownField } from '../../../http/errors.ts';
import { actorOf } from '../../../http/auth.ts';
import { pageEnvelope, pageRequest } from '../../../http/pagination.ts';
import { parseBody } from '../../../http/validation.ts';
import { bool } from '../../../lib/json.ts';
import { isUuid } from '../../../lib/ids.ts';
import type { JsonSchema } from '../../../openapi/yup-to-json-schema.ts';
import { resolveAgentName, AGENT_HEADER } from './attribution.ts';
import { countAgainstCeiling, actorId } from './ceilings.ts';
import type { CeilingKind } from './ceilings.ts';
import { ChangeLog } from './changes.ts';
import type { Params, ReadCall, WriteCall } from './context.ts';
import { actorRequired, guestNotAllowed, missingScope, personOnly, planUpgradeRequired, readOnly } from './errors.ts';
import { claimKey, parseIdempotencyKey, releaseKey, requestFingerprint, storeAnswer } from './idempotency.ts';
import type { ClaimedKey, StoredAnswer } from './idempotency.ts';
import { PlanQuery } from './query.ts';
import { ReadOnlySwitch } from './read-only.ts';
import { actsAsPerson, defaultScope, scopeCovers } from './scopes.ts';
import type { PlanScope } from './scopes.ts';

export type WriteMethod = 'post' | 'put' | 'patch' | 'delete';

/** What a Plan route declares; the gate, the OpenAPI document and the scope table in docs/plan.md read it. */
interface RouteSpec {
  path: string;
  summary: string;
  description?: string;
  /** Defaults: GET tasks:read, DELETE tasks:admin, other writes tasks:write (scopes.ts). */
  scope?: PlanScope;
  /** Person-only endpoint (me/*, inbox, favorites, personal views): agent and organization keys get 403. */
  person?: boolean;
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
  query?: { name: string; description: string; schema?: JsonSchema }[];
}

export interface ReadSpec extends RouteSpec {}
export interface ListSpec extends RouteSpec {
  /** OpenAPI: the components name of one item. */
  item: string;
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
  /** Bulk calls refuse a request without Idempotency-Key (`idempotency_key_required`). */
  idempotencyRequired?: boolean;
}

/** One Plan operation as documented: the route's declaration with its defaults resolved. */
export interface PlanOperation {
  method: 'get' | WriteMethod;
  path: string;
  tag: string;
  summary: string;
  description?: string;
  scope: PlanScope;
  ceiling: CeilingKind;
  person: boolean;
  personQuery: Record<string, string>;
  betaExempt: boolean;
  destructive: boolean;
  idempotency: 'none' | 'optional' | 'required';
  body?: AnyObjectSchema;
  status: number;
  response: string | JsonSchema | null;
  list: boolean;
  query: { name: string; description: string; schema?: JsonSchema }[];
}

type Body<S> = S extends AnyObjectSchema ? InferType<S> : Record<string, never>;

/** An unexpected error frees an Idempotency-Key; so do these refusals, whose remedy is to retry with the same key. */
const RETRY_WITH_SAME_KEY = new Set(['identifier_allocation_failed']);

class DryRunRollback extends Error {
  readonly answer: StoredAnswer;
  constructor(answer: StoredAnswer) {
    super('dry run');
    this.answer = answer;
  }
}

/** A refusal as the answer stored under an Idempotency-Key (4xx only; 429 and transient codes are not kept). */
function refusalAnswer(err: unknown): StoredAnswer | null {
  if (err instanceof ValidationFailed) return { status: 400, headers: {}, body: err.fields };
  if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429 && !RETRY_WITH_SAME_KEY.has(err.code)) {
    return { status: err.status, headers: err.headers ?? {}, body: err.body() };
  }
  return null;
}

function send(ctx: Context, answer: StoredAnswer, replayed = false): void {
  ctx.status = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
  if (replayed) ctx.set('Idempotency-Replayed', 'true');
  if (answer.status !== 204) ctx.body = answer.body ?? {};
}

/** Path parameters: uuids (lower-cased) unless declared otherwise; anything else names nothing (404). */
function checkedParams(ctx: Context, keyParams: string[] = []): Params {
  const params: Params = {};
  for (const [name, value] of Object.entries(ctx.params as Params)) {
    if (keyParams.includes(name)) params[name] = value;
    else if (isUuid(value)) params[name] = value.toLowerCase();
    else throw notFound();
  }
  return params;
}

/** Any field in a body the operation does not take is refused, as everywhere (CONTRACT §2). */
function noBodyFields(body: unknown): Record<string, never> {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const [first] = Object.keys(body);
    if (first !== undefined) throw unknownField(first);
  }
  return {};
}

/**
 * Every Plan route is declared through this registrar: `read`, `list` and `write` take the route's declaration and
 * a handler that calls a service and presents its result. The registrar puts the same steps in front of every
 * route, in this order (tested):
 *
 *  1. credential (authenticate, Plan surface: the key plan checks answer 401);
 *  2. 402 `plan_upgrade_required` unless the organization has the beta (not on entitlements);
 *  3. 403 `guest_not_allowed`;
 *  4. person-only endpoints: 403 `insufficient_scope` for agent and organization keys; query values that need a
 *     person (`member=me`): 400 `actor_required`;
 *  5. 403 `insufficient_scope` unless the key's explicit scopes cover the route's scope;
 *  6. writes: 503 `feature_temporarily_read_only` while the operator's switch is on;
 *  7. the per-actor minute ceiling: 429 `throttled`;
 *
 * then, for writes: `?dry_run`, `Idempotency-Key` (format, then claim: replay, mismatch, in progress),
 * `X-Service-Agent-Name`, path ids, the body; then one transaction handed to the handler, in which the change
 * log and the key's stored answer are written; a dry run is rolled back after its answer is built.
 *
 * Built without a router (`PlanRoutes.describe()`), it only collects the declarations: the OpenAPI document and
 * the scope table are generated from exactly the routes that are served.
 */
export class PlanRoutes {
  readonly operations: PlanOperation[] = [];
  readonly #router: Router | null;
  readonly #deps: Deps | null;
  readonly #authenticate: ReturnType<Middlewares['authenticate']> | null;
  readonly #readOnly: ReadOnlySwitch | null;

  private constructor(router: Router | null, deps: Deps | null, middlewares: Middlewares | null) {
    this.#router = router;
    this.#deps = deps;
    this.#authenticate = middlewares ? middlewares.authenticate({ surface: 'plan' }) : null;
    this.#readOnly = deps ? new ReadOnlySwitch(deps.db, deps.clock) : null;
  }

  static serve(router: Router, deps: Deps, middlewares: Middlewares): PlanRoutes {
    return new PlanRoutes(router, deps, middlewares);
  }

  static describe(): PlanRoutes {
    return new PlanRoutes(null, null, null);
  }

  /** The registrar for one resource: every operation it declares carries this OpenAPI tag. */
  tagged(tag: string) {
    return {
      read: <R>(spec: ReadSpec, handler: (call: ReadCall) => Promise<R>) => this.#read(tag, spec, handler),
      list: <R>(spec: ListSpec, handler: (call: ReadCall) => Promise<{ count: number; results: R[] }>) => this.#list(tag, spec, handler),
      write: <S extends AnyObjectSchema | undefined, R>(spec: WriteSpec<S>, handler: (call: WriteCall<Body<S>>) => Promise<R>) => this.#write(tag, spec, handler),
    };
  }

  #declare(tag: string, method: 'get' | WriteMethod, spec: RouteSpec & Partial<WriteSpec<AnyObjectSchema | undefined>>, list: boolean): PlanOperation {
    const operation: PlanOperation = {
      method,
      path: spec.path,
      tag,
      summary: spec.summary,
      description: spec.description,
      scope: spec.scope ?? defaultScope(method),
      ceiling: spec.ceiling ?? (method === 'get' ? 'reads' : 'writes'),
      person: spec.person ?? false,
      personQuery: spec.personQuery ?? {},
      betaExempt: spec.betaExempt ?? false,
      destructive: spec.destructive ?? method === 'delete',
      idempotency: method === 'get' ? 'none' : spec.idempotencyRequired ? 'required' : 'optional',
      body: spec.body,
      status: spec.status ?? 200,
      response: spec.response === undefined ? null : spec.response,
      list,
      query: spec.query ?? [],
    };
    this.operations.push(operation);
    return operation;
  }

  #read<R>(tag: string, spec: ReadSpec, handler: (call: ReadCall) => Promise<R>): void {
    const operation = this.#declare(tag, 'get', spec, false);
    this.#mount(operation, async (ctx, deps) => {
      ctx.body = (await handler(await this.#readCall(ctx, deps, spec))) ?? {};
    });
  }

  #list<R>(tag: string, spec: ListSpec, handler: (call: ReadCall) => Promise<{ count: number; results: R[] }>): void {
    const operation = this.#declare(tag, 'get', { ...spec, response: { $ref: `#/components/schemas/${spec.item}` } }, true);
    this.#mount(operation, async (ctx, deps) => {
      const call = await this.#readCall(ctx, deps, spec);
      const { count, results } = await handler(call);
      ctx.body = pageEnvelope(ctx, call.page, count, results, deps.config.publicUrl);
    });
  }

  async #readCall(ctx: Context, deps: Deps, spec: RouteSpec): Promise<ReadCall> {
    const actor = actorOf(ctx);
    const query = new PlanQuery(ctx.query);
    // A bad attribution header is refused on reads too: an agent learns of it on its first call.
    await resolveAgentName(deps.db, actor, ctx.headers[AGENT_HEADER]);
    return { db: deps.db, actor, now: deps.clock.now(), deps, params: checkedParams(ctx, spec.keyParams), query, page: pageRequest(ctx) };
  }

  #write<S extends AnyObjectSchema | undefined, R>(tag: string, spec: WriteSpec<S>, handler: (call: WriteCall<Body<S>>) => Promise<R>): void {
    const operation = this.#declare(tag, spec.method, spec, false);
    this.#mount(operation, async (ctx, deps) => {
      const actor = actorOf(ctx);
      const now = deps.clock.now();
      const query = new PlanQuery(ctx.query);
      const dryRun = query.flag('dry_run');
      if (dryRun && !operation.destructive) throw invalidFilter('dry_run', 'This operation has no dry run: it is not destructive.');
      const key = parseIdempotencyKey(ctx.headers['idempotency-key']);
      if (key === null && operation.idempotency === 'required') {
        throw badRequest('idempotency_key_required', 'This call needs an Idempotency-Key header (8 to 128 characters).');
      }
      const agentName = await resolveAgentName(deps.db, actor, ctx.headers[AGENT_HEADER]);
      const params = checkedParams(ctx, spec.keyParams);

      // Dry runs are never stored under a key: the same key may then run the operation for real.
      let claimed: ClaimedKey | null = null;
      if (key !== null && !dryRun) {
        const fingerprint = requestFingerprint(ctx.method, ctx.url, ctx.request.body);
        const claim = await claimKey(deps.db, { actorId: actorId(actor), key, fingerprint, organizationUuid: actor.organization.uuid }, now);
        if (claim.kind === 'replay') return send(ctx, claim.answer, true);
        claimed = claim.claim;
      }

      try {
        const body = (spec.body ? await parseBody(spec.body, ctx.request.body ?? {}) : noBodyFields(ctx.request.body)) as Body<S>;
        const answer = await deps.db.transaction(async (trx) => {
          const changes = new ChangeLog(trx, actor, agentName, now);
          const headers: Record<string, string> = {};
          let status = operation.status;
          const call: WriteCall<Body<S>> = {
            db: trx, actor, now, deps, changes, agentName, dryRun, params, query, body,
            header: (name, value) => void (headers[name] = value),
            status: (code) => void (status = code),
          };
          const result = await handler(call);
          const done: StoredAnswer = { status, headers, body: status === 204 ? undefined : result };
          if (dryRun) {
            const changed = changes.recorded.map((c) => ({ object_kind: c.kind, object_uuid: c.uuid, change_kind: c.change, changed_fields: c.fields ?? [] }));
            throw new DryRunRollback({ status: 200, headers: {}, body: { dry_run: true, status, result: result ?? null, changes: changed } });
          }
          if (claimed) await storeAnswer(trx, claimed, done, now);
          return done;
        });
        send(ctx, answer);
      } catch (err) {
        if (err instanceof DryRunRollback) return send(ctx, err.answer);
        if (claimed) {
          const refusal = refusalAnswer(err);
          if (refusal) await storeAnswer(deps.db, claimed, refusal, now);
          else await releaseKey(deps.db, claimed);
        }
        throw err;
      }
    });
  }

  #mount(operation: PlanOperation, run: (ctx: Context, deps: Deps) => Promise<void>): void {
    if (!this.#router || !this.#deps || !this.#authenticate) return;
    const deps = this.#deps;
    const gate = this.#gate(operation, deps);
    const methods = operation.method === 'get' ? ['HEAD', 'GET'] : [operation.method.toUpperCase()];
    this.#router.register(operation.path, methods, [this.#authenticate, gate, (ctx: Context) => run(ctx, deps)]);
  }

  /** Steps 2–7 of the order above (authenticate is step 1). */
  #gate(operation: PlanOperation, deps: Deps) {
    const readOnlySwitch = this.#readOnly!;
    const write = operation.method !== 'get';
    const personQuery = Object.entries(operation.personQuery);
    return async (ctx: Context, next: () => Promise<unknown>): Promise<void> => {
      const actor = actorOf(ctx);
      if (!operation.betaExempt && !bool(actor.organization.plan_beta_enabled)) throw planUpgradeRequired();
      if (actor.user.role === 'guest') throw guestNotAllowed();
      if (!actsAsPerson(actor)) {
        if (operation.person) throw personOnly();
        for (const [name, value] of personQuery) if (ctx.query[name] === value) throw actorRequired(name);
      }
      if (!scopeCovers(actor.credential.scopes, operation.scope)) throw missingScope(operation.scope);
      if (write && (await readOnlySwitch.isOn())) throw readOnly();
      await countAgainstCeiling(deps, ctx, actor, operation.ceiling);
      await next();
    };
  }
}
