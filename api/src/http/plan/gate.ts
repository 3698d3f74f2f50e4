import type { Context } from 'koa';
import type { Actor } from '../../auth/credentials.ts';
import { actsAsPerson, can, hasPlanScope, missingScope, planActorId } from '../../auth/policy.ts';
import { ReadOnlySwitch } from '../../db/settings.ts';
import { ApiError, badRequest, forbidden } from '../../lib/errors.ts';
import { bool } from '../../lib/json.ts';
import type { Deps } from '../deps.ts';
import { takeFromBudget } from '../rate-limit.ts';
import type { CeilingKind, PlanOperation } from './declarations.ts';

/** Refusals of the gate, the spec's Plan codes. */
const planUpgradeRequired = () =>
  new ApiError(402, 'plan_upgrade_required', 'Plan is not enabled for this organization. GET /v1/plan/entitlements/ shows what it may use.');
const guestNotAllowed = () => forbidden('guest_not_allowed', 'Guest accounts cannot use Plan.');
const personOnly = () => forbidden('insufficient_scope', 'This endpoint acts for a person; agent and organization keys cannot call it.');
const structureNeedsPerson = () =>
  new ApiError(403, 'insufficient_scope', 'Changing the structure (boards, states, projects, goals, memberships) needs tasks:admin, which only a person holds; agent and organization keys cannot.', { extra: { required_scope: 'tasks:admin' } });
const actorRequired = (parameter: string, value: string) =>
  badRequest('actor_required', `${parameter}=${value} needs a person; agent and organization keys act for no one.`, { parameter });
const readOnly = () =>
  new ApiError(503, 'feature_temporarily_read_only', 'Plan is read-only during an incident; reads continue. Retry the write later.', { headers: { 'Retry-After': '60' } });

/**
 * Steps 2–5 of every Plan call, in this order (the credential was step 1): the beta (402), guests (403), a person
 * where one is needed (403 on person-only endpoints, 400 actor_required for `member=me` and the like), the key's
 * explicit scopes (403 insufficient_scope).
 */
export function admit(operation: PlanOperation, actor: Actor, query: Record<string, unknown>): void {
  if (!operation.betaExempt && !bool(actor.organization.plan_beta_enabled)) throw planUpgradeRequired();
  if (!can(actor, 'plan.use')) throw guestNotAllowed();
  if (!actsAsPerson(actor)) {
    if (operation.person) throw personOnly();
    if (operation.structure) throw structureNeedsPerson();
    for (const [name, value] of Object.entries(operation.personQuery)) {
      const given = query[name];
      if ((Array.isArray(given) ? given[given.length - 1] : given) === value) throw actorRequired(name, value);
    }
  }
  if (!hasPlanScope(actor, operation.scope)) throw missingScope(operation.scope);
}

/** One read-only switch per app (every Plan router shares it). */
const switches = new WeakMap<Deps, ReadOnlySwitch>();
const readOnlySwitch = (deps: Deps): ReadOnlySwitch => {
  let found = switches.get(deps);
  if (!found) switches.set(deps, (found = new ReadOnlySwitch(deps.db, deps.clock, { notifications: deps.notifications })));
  return found;
};

/** Steps 2–7 as one middleware: the checks above, then for writes the read-only switch (6), then the minute ceiling (7). */
export function gate(operation: PlanOperation, deps: Deps, actorOf: (ctx: Context) => Actor) {
  const write = operation.method !== 'get';
  return async (ctx: Context, next: () => Promise<unknown>): Promise<void> => {
    const actor = actorOf(ctx);
    admit(operation, actor, ctx.query);
    if (write && (await readOnlySwitch(deps).isOn())) throw readOnly();
    await countAgainstCeiling(deps, ctx, actor, operation.ceiling);
    await next();
  };
}

/**
 * Counts the request against its minute ceiling in the same budgets as the hourly ones (db/counters.ts: exact
 * across processes), sets RateLimit-Policy and RateLimit, and answers 429 `throttled` with `extra.retry_after`
 * and Retry-After when over.
 */
function countAgainstCeiling(deps: Deps, ctx: Context, actor: Actor, kind: CeilingKind): Promise<void> | void {
  const window = { policy: `plan-${kind}`, limit: deps.config.planMinuteLimits[kind], seconds: 60 };
  return takeFromBudget(deps, ctx, `plan-${kind}:${planActorId(actor)}`, window);
}
