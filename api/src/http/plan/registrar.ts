import Router from '@koa/router';
import type { Context } from 'koa';
import type { AnyObjectSchema } from 'yup';
import { planActorId } from '../../auth/policy.ts';
import { lookupKey } from '../../db/idempotency-keys.ts';
import type { ClaimedKey } from '../../db/idempotency-keys.ts';
import { ValidationFailed, badRequest, invalidFilter } from '../../lib/errors.ts';
import { etagMatches } from '../../lib/etags.ts';
import { actorOf } from '../auth.ts';
import type { Deps } from '../deps.ts';
import type { Middlewares } from '../middlewares.ts';
import { pageEnvelope } from '../pagination.ts';
import { pageRequest } from '../query.ts';
import { parseBody } from '../validation.ts';
import { resolveOperation } from './declarations.ts';
import type { ListSpec, PlanOperation, ReadSpec, UploadSpec, WriteMethod, WriteSpec } from './declarations.ts';
import { sendFile } from './files.ts';
import type { FileBody } from './files.ts';
import { agentNameInput, baseUrl, checkedParams, noBodyFields, send } from './answers.ts';
import { uploadRoute } from './upload.ts';
import { foldAliases } from './aliases.ts';
import { gate } from './gate.ts';
import { IDEMPOTENCY_KEY_RULE, parseIdempotencyKey, requestFingerprint } from './idempotency.ts';
import { PlanQuery } from './query.ts';
import { runWrite, settleKey } from './write.ts';

export type { Body, Params, PlanHooks, PrepareCall, ReadCall, Receiver, WriteCall } from './calls.ts';
import type { Body, PlanHooks, Prepare, ReadCall, Receiver, WriteCall } from './calls.ts';

/** What a list handler answers: the total, this page, and fields beside the envelope's own. */
export interface ListAnswer<R> {
  count: number;
  results: R[];
  envelope?: Record<string, unknown>;
}

/** A Plan resource: a function that declares its routes on the registrar (features/plan/<resource>/routes.ts). */
export type PlanResource = (plan: PlanRoutes) => void;

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
 * log and the key's stored answer are written (write.ts); a dry run is rolled back after its answer is built.
 *
 * Built without a router (`PlanRoutes.describe()`), it only collects the declarations: the OpenAPI document and
 * the scope table are generated from exactly the routes that are served.
 */
export class PlanRoutes {
  readonly operations: PlanOperation[] = [];
  readonly #router: Router | null;
  readonly #deps: Deps | null;
  readonly #hooks: PlanHooks | null;
  readonly #authenticate: ReturnType<Middlewares['authenticate']> | null;

  private constructor(router: Router | null, deps: Deps | null, middlewares: Middlewares | null, hooks: PlanHooks | null) {
    this.#router = router;
    this.#deps = deps;
    this.#hooks = hooks;
    this.#authenticate = middlewares ? middlewares.authenticate({ surface: 'plan' }) : null;
  }

  static serve(router: Router, deps: Deps, middlewares: Middlewares, hooks: PlanHooks): PlanRoutes {
    return new PlanRoutes(router, deps, middlewares, hooks);
  }

  static describe(): PlanRoutes {
    return new PlanRoutes(null, null, null, null);
  }

  /** The registrar for one resource: every operation it declares carries this OpenAPI tag. */
  tagged(tag: string) {
    return {
      read: <R>(spec: ReadSpec, handler: (call: ReadCall) => Promise<R>) => this.#read(tag, spec, handler),
      /** `envelope`: fields beside count, next, previous and results (the DailyBot client reads a few there). */
      list: <R>(spec: ListSpec, handler: (call: ReadCall) => Promise<ListAnswer<R>>) => this.#list(tag, spec, handler),
      write: <S extends AnyObjectSchema | undefined, R, P = undefined>(spec: WriteSpec<S> & Prepare<S, P>, handler: (call: WriteCall<Body<S>, P>) => Promise<R>) =>
        this.#write(tag, spec, handler),
      /** One file in a multipart/form-data request, streamed to `receiver`, then `handler` in the write's transaction. */
      upload: <S extends AnyObjectSchema | undefined, F extends { digest: string }, R>(
        spec: UploadSpec & { fields?: S },
        receiver: Receiver<F>,
        handler: (call: WriteCall<Body<S>> & { file: F }) => Promise<R>,
      ) => this.#upload(tag, spec, receiver, handler),
      /** A file download (`Content-Disposition: attachment`, `X-Content-Type-Options: nosniff`). */
      download: (spec: ReadSpec, handler: (call: ReadCall) => Promise<FileBody>) => this.#download(tag, spec, handler),
    };
  }

  #declare(tag: string, method: 'get' | WriteMethod, spec: ReadSpec | ListSpec | WriteSpec<AnyObjectSchema | undefined> | UploadSpec, list: boolean, kind: { upload?: boolean; download?: boolean } = {}): PlanOperation {
    const operation = resolveOperation(tag, method, spec, list, kind);
    this.operations.push(operation);
    return operation;
  }

  #read<R>(tag: string, spec: ReadSpec, handler: (call: ReadCall) => Promise<R>): void {
    const operation = this.#declare(tag, 'get', spec, false);
    this.#mount(operation, async (ctx, deps, hooks) => {
      const result = await handler(await this.#readCall(ctx, deps, hooks, operation));
      const etag = ctx.response.get('ETag');
      if (etag && etagMatches(ctx.headers['if-none-match'], etag)) ctx.status = 304;
      else ctx.body = result ?? {};
    });
  }

  #download(tag: string, spec: ReadSpec, handler: (call: ReadCall) => Promise<FileBody>): void {
    const operation = this.#declare(tag, 'get', spec, false, { download: true });
    this.#mount(operation, async (ctx, deps, hooks) => {
      sendFile(ctx, await handler(await this.#readCall(ctx, deps, hooks, operation)));
    });
  }

  #list<R>(tag: string, spec: ListSpec, handler: (call: ReadCall) => Promise<ListAnswer<R>>): void {
    const operation = this.#declare(tag, 'get', spec, true);
    this.#mount(operation, async (ctx, deps, hooks) => {
      const call = await this.#readCall(ctx, deps, hooks, operation);
      const { count, results, envelope } = await handler(call);
      ctx.body = { ...pageEnvelope(ctx, call.page, count, results, deps.config.publicUrl), ...envelope };
    });
  }

  async #readCall(ctx: Context, deps: Deps, hooks: PlanHooks, operation: PlanOperation): Promise<ReadCall> {
    const actor = actorOf(ctx);
    // A bad attribution header is refused on reads too: an agent learns of it on its first call.
    await hooks.resolveAgentName(deps.db, actor, agentNameInput(ctx));
    const query = new PlanQuery(ctx, actor.user.uuid);
    return {
      db: deps.db, actor, now: deps.clock.now(), deps, params: checkedParams(ctx, operation.keyParams), query, page: pageRequest(ctx), headers: ctx.headers,
      baseUrl: baseUrl(ctx, deps), header: (name, value) => void ctx.set(name, value),
    };
  }

  #write<S extends AnyObjectSchema | undefined, R, P>(tag: string, spec: WriteSpec<S> & Prepare<S, P>, handler: (call: WriteCall<Body<S>, P>) => Promise<R>): void {
    const operation = this.#declare(tag, spec.method, spec, false);
    this.#mount(operation, async (ctx, deps, hooks) => {
      const actor = actorOf(ctx);
      const now = deps.clock.now();
      const query = new PlanQuery(ctx, actor.user.uuid);
      const dryRun = query.flag('dry_run');
      if (dryRun && !operation.destructive) throw invalidFilter('dry_run', 'This operation has no dry run: it is not destructive.');
      const key = parseIdempotencyKey(ctx.headers['idempotency-key']);
      // A dry run writes nothing, so it needs no key (the DailyBot client never sends one on a dry run).
      if (key === null && operation.idempotency === 'required' && !dryRun) {
        throw badRequest('idempotency_key_required', `This call needs an Idempotency-Key header (${IDEMPOTENCY_KEY_RULE}).`);
      }
      const agentName = await hooks.resolveAgentName(deps.db, actor, agentNameInput(ctx));
      const params = checkedParams(ctx, operation.keyParams);

      // Dry runs are never stored under a key: the same key may then run the operation for real.
      let claimed: ClaimedKey | null = null;
      if (key !== null && !dryRun) {
        const fingerprint = requestFingerprint(ctx.method, ctx.url, ctx.request.body);
        const claim = await lookupKey(deps.db, { actorId: planActorId(actor), key, fingerprint, organizationUuid: actor.organization.uuid }, now);
        if (claim.kind === 'replay') return send(ctx, claim.answer, true);
        claimed = claim.claim;
      }

      let body: Body<S>;
      let items: unknown[] | undefined;
      let prepared: P;
      try {
        if (spec.items) items = await parseItems(spec.items, ctx.request.body);
        else body = (spec.body ? foldAliases(spec.body, await parseBody(spec.body, ctx.request.body ?? {})) : noBodyFields(ctx.request.body)) as Body<S>;
        body ??= {} as Body<S>;
        const call = { db: deps.db, actor, now, deps, params, query, page: pageRequest(ctx), headers: ctx.headers, baseUrl: baseUrl(ctx, deps), body };
        prepared = (spec.prepare ? await spec.prepare(call) : undefined) as P;
      } catch (err) {
        if (claimed) await settleKey(deps.db, claimed, err, now);
        throw err;
      }
      const answer = await runWrite(
        deps.db,
        { actor, now, agentName, dryRun, claimed, events: hooks.events, afterEvents: () => deps.delivery.kick() },
        (unit, answer) =>
          handler({
            ...unit, deps, params, query, body, items, prepared, headers: ctx.headers, baseUrl: baseUrl(ctx, deps),
            header: (name, value) => void (answer.headers[name] = value),
            status: (code) => void (answer.status = code),
          }),
        operation.status,
        spec.preview,
      );
      send(ctx, answer, answer.replayed);
    });
  }

  #upload<S extends AnyObjectSchema | undefined, F extends { digest: string }, R>(
    tag: string,
    spec: UploadSpec & { fields?: S },
    receiver: Receiver<F>,
    handler: (call: WriteCall<Body<S>> & { file: F }) => Promise<R>,
  ): void {
    const operation = this.#declare(tag, 'post', spec, false, { upload: true });
    this.#mount(operation, uploadRoute(operation, spec, receiver, handler));
  }

  #mount(operation: PlanOperation, run: (ctx: Context, deps: Deps, hooks: PlanHooks) => Promise<void>): void {
    if (!this.#router || !this.#deps || !this.#authenticate || !this.#hooks) return;
    const deps = this.#deps;
    const hooks = this.#hooks;
    const methods = operation.method === 'get' ? ['HEAD', 'GET'] : [operation.method.toUpperCase()];
    this.#router.register([operation.path, ...operation.aliases], methods, [this.#authenticate, gate(operation, deps, actorOf), (ctx: Context) => run(ctx, deps, hooks)]);
  }
}

/** The router of Plan resources, for a Plan feature's feature.ts. */
export function planRouter(deps: Deps, middlewares: Middlewares, hooks: PlanHooks, ...resources: PlanResource[]): Router {
  const router = new Router();
  const plan = PlanRoutes.serve(router, deps, middlewares, hooks);
  for (const resource of resources) resource(plan);
  return router;
}

/** The operations of Plan resources as declared, without serving them (for the OpenAPI document). */
export function describePlan(...resources: PlanResource[]): PlanOperation[] {
  const plan = PlanRoutes.describe();
  for (const resource of resources) resource(plan);
  return plan.operations;
}

/** A JSON array body: at most `max` items, each an object its schema accepts; problems are reported by index ("0.name"). */
async function parseItems(spec: { schema: AnyObjectSchema; max: number }, input: unknown): Promise<unknown[]> {
  if (!Array.isArray(input)) throw new ValidationFailed({ non_field_errors: ['Expected a JSON array.'] });
  if (input.length > spec.max) throw new ValidationFailed({ non_field_errors: [`Ensure this list has no more than ${spec.max} items.`] });
  const items: unknown[] = [];
  for (const [index, item] of input.entries()) {
    try {
      items.push(await parseBody(spec.schema, item));
    } catch (err) {
      if (err instanceof ValidationFailed) throw new ValidationFailed(Object.fromEntries(Object.entries(err.fields).map(([field, messages]) => [`${index}.${field}`, messages])));
      throw err;
    }
  }
  return items;
}
