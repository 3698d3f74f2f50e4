import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AnyObjectSchema, InferType } from 'yup';
import type { Deps } from '../../../deps.ts';
import type { Middlewares } from '../../../http/middlewares.ts';
import { badRequest, invalidFilter, notFound, throttled, unknownField } from '../../../http/errors.ts';
import { actorOf } from '../../../http/auth.ts';
import { pageEnvelope, pageRequest } from '../../../http/pagination.ts';
import type { PageRequest } from '../../../http/pagination.ts';
import { setRateLimitHeaders } from '../../../http/rate-limit.ts';
import { parseBody } from '../../../http/validation.ts';
import { isUuid } from '../../../lib/ids.ts';
import type { JsonSchema } from '../../../openapi/yup-to-json-schema.ts';
import type { Actor } from '../../auth/credentials.ts';
import { resolveAgentName, AGENT_HEADER } from './attribution.ts';
import type { PlanRead, PlanWrite } from './context.ts';
import { readOnly } from './errors.ts';
import { admit } from './gate.ts';
import { claimKey, parseIdempotencyKey, requestFingerprint } from './idempotency.ts';
import type { ClaimedKey, StoredAnswer } from './idempotency.ts';
import { runWrite, settleKey } from './operation.ts';
import { actorId } from './policy.ts';
import { PlanQuery } from './query.ts';
import { ReadOnlySwitch } from './read-only.ts';
import { defaultScope } from './scopes.ts';
import type { PlanScope } from './scopes.ts';

/** The spec's Plan minute ceilings, per actor: which one a route counts against. */
export type CeilingKind = 'reads' | 'writes' | 'bulk' | 'delta';

export type Params = Record<string, string>;

/** What a read handler gets: a service's PlanRead, plus the request's path ids, query and page. */
export interface ReadCall extends PlanRead {
  params: Params;
  query: PlanQuery;
  page: PageRequest;
  /** The app's services, for handlers that hand one to their service (a chat connection's secrets, outbound HTTP). */
  deps: Deps;
}

/** What a write handler gets: a service's PlanWrite (the operation's transaction), plus the request. */
export interface WriteCall<B> extends PlanWrite {
  params: Params;
  query: PlanQuery;
  body: B;
  deps: Deps;
  /** An answer header (Location and ETag are stored with an Idempotency-Key and replayed). */
  header(name: string, value: string): void;
  /** Answers another success status than the route's (POST …/members/ for someone already a member: 200). */
  status(code: number): void;
}

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

      let body: Body<S>;
      try {
        body = (spec.body ? await parseBody(spec.body, ctx.request.body ?? {}) : noBodyFields(ctx.request.body)) as Body<S>;
      } catch (err) {
        if (claimed) await settleKey(deps.db, claimed, err, now);
        throw err;
      }
      const answer = await runWrite(
        deps.db,
        { actor, now, agentName, dryRun, claimed },
        (w, answer) =>
          handler({
            ...w, deps, params, query, body,
            header: (name, value) => void (answer.headers[name] = value),
            status: (code) => void (answer.status = code),
          }),
        operation.status,
      );
      send(ctx, answer);
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
    return async (ctx: Context, next: () => Promise<unknown>): Promise<void> => {
      const actor = actorOf(ctx);
      admit(operation, actor, ctx.query);
      if (write && (await readOnlySwitch.isOn())) throw readOnly();
      await countAgainstCeiling(deps, ctx, actor, operation.ceiling);
      await next();
    };
  }
}

/**
 * Counts the request against its minute ceiling through the same write-behind counters as the hourly budgets
 * (http/rate-counters.ts), sets RateLimit-Policy and RateLimit, and answers 429 `throttled` with
 * `extra.retry_after` and Retry-After when over.
 */
function countAgainstCeiling(deps: Deps, ctx: Context, actor: Actor, kind: CeilingKind): Promise<void> | void {
  const window = { policy: `plan-${kind}`, limit: deps.config.planMinuteLimits[kind], seconds: 60 };
  const nowSeconds = Math.floor(deps.clock.now().getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % window.seconds);
  const apply = (count: number): void => {
    const usage = { allowed: count <= window.limit, remaining: Math.max(0, window.limit - count), resetSeconds: windowStart + window.seconds - nowSeconds };
    setRateLimitHeaders(ctx, window, usage);
    if (!usage.allowed) throw throttled(usage.resetSeconds);
  };
  const count = deps.rateCounters.hit(`plan-${kind}:${actorId(actor)}`, windowStart, window.seconds);
  return typeof count === 'number' ? apply(count) : count.then(apply);
}
