import type { Context, Next } from 'koa';
import type { Deps } from './deps.ts';
import { sha256Hex } from '../lib/secrets.ts';
import { bool } from '../lib/json.ts';
import { ApiError, forbidden, unauthorized } from '../lib/errors.ts';
import { lookupCredential, presentedCredential } from '../auth/credentials.ts';
import type { Actor, CredentialKind } from '../auth/credentials.ts';

export interface AuthOptions {
  /** Credentials this endpoint takes (the spec's method matrix); both by default. */
  accept?: CredentialKind[];
  /** Plan-check refusals are 403 on the general surface and 401 under /v1/plan/ (the spec states both). */
  surface?: 'general' | 'plan';
  /** On the spec's allow-list for free-plan organizations calling with a CLI Bearer token. */
  freePlanBearer?: boolean;
}

const LAST_USED_RESOLUTION_MS = 60_000;

export function actorOf(ctx: Context): Actor {
  const actor = ctx.state.actor as Actor | undefined;
  if (!actor) throw new Error('actorOf() used on a route without authenticate()');
  return actor;
}

/** API-key plan rules: the spec's "Plan requirements for API keys" table, in its order. */
function planRefusal(actor: Actor): { code: string; detail: string } | null {
  if (!bool(actor.user.is_active)) {
    return { code: 'api_key_owner_inactive', detail: 'The owner of this API key is deactivated.' };
  }
  if (actor.organization.plan === 'free') {
    return { code: 'plan_free_api_keys_forbidden', detail: 'API keys are not available on the free plan.' };
  }
  if (actor.organization.plan === 'basic') {
    return { code: 'plan_missing_core_api_integrations', detail: 'Your plan does not include API access.' };
  }
  return null;
}

/**
 * Resolves X-API-KEY or a CLI Bearer token into `ctx.state.actor`, or answers 401/403 with the spec's codes.
 * Resolved credentials are cached for at most `AUTH_CACHE_SECONDS` (≤ 60, the spec's plan-check cache).
 */
export function makeAuthenticate(deps: Deps) {
  const lastTouched = new Map<string, number>();

  /** Records last_used_at at most once a minute per credential; null (no promise) when there is nothing to write. */
  function touch(actor: Actor, now: Date): Promise<void> | null {
    const previous = lastTouched.get(actor.credential.uuid) ?? 0;
    if (now.getTime() - previous < LAST_USED_RESOLUTION_MS) return null;
    if (lastTouched.size > 50_000) lastTouched.clear();
    lastTouched.set(actor.credential.uuid, now.getTime());
    const table = actor.credential.kind === 'api_key' ? 'api_keys' : 'cli_tokens';
    return deps.db(table).where({ uuid: actor.credential.uuid }).update({ last_used_at: now.toISOString() }).then(() => undefined);
  }

  return function authenticate(options: AuthOptions = {}) {
    const accept = options.accept ?? ['api_key', 'bearer'];
    const refusalStatus = options.surface === 'plan' ? 401 : 403;

    /** The checks that follow resolution: the endpoint's credential kinds and the plan rules. */
    function admit(ctx: Context, actor: Actor, now: Date, next: Next): Promise<void> {
      if (!accept.includes(actor.credential.kind)) {
        throw forbidden(
          'credential_not_accepted',
          actor.credential.kind === 'api_key'
            ? 'This endpoint does not accept API keys; sign in with the command-line client.'
            : 'This endpoint accepts API keys only.',
        );
      }
      if (actor.credential.kind === 'api_key') {
        // A self-registered agent's key (a free-plan organization it owns until claimed, CONTRACT §6) may call
        // the endpoints the free plan allows; no other API key works on the free plan.
        const selfRegisteredAgent = options.freePlanBearer === true && actor.credential.keyKind === 'agent' && actor.organization.plan === 'free';
        const refusal = selfRegisteredAgent && bool(actor.user.is_active) ? null : planRefusal(actor);
        if (refusal) throw new ApiError(refusalStatus, refusal.code, refusal.detail);
      } else if (actor.organization.plan === 'free' && !options.freePlanBearer) {
        throw forbidden('plan_upgrade_required', 'This endpoint is not available on the free plan.');
      }

      ctx.state.actor = actor;
      const touching = touch(actor, now);
      return touching ? touching.then(() => next()) : next();
    }

    // Not async: a cached credential (nearly every request) is admitted without a promise of its own. A throw
    // reaches the error handler either way: koa-compose turns it into a rejection.
    return function requireCredential(ctx: Context, next: Next): Promise<void> {
      const presented = presentedCredential(ctx.headers);
      if (presented === 'absent') throw unauthorized('credential_absent');
      if (presented === 'malformed') throw unauthorized('credential_malformed');

      const now = deps.clock.now();
      const hash = sha256Hex(presented.secret);
      const cached = deps.credentialCache.get(hash, now.getTime());
      if (cached) return admit(ctx, cached, now, next);
      return lookupCredential(deps.db, presented, now).then((resolution) => {
        if (!resolution.ok) throw unauthorized(resolution.code);
        deps.credentialCache.set(hash, resolution.actor, now.getTime());
        return admit(ctx, resolution.actor, now, next);
      });
    };
  };
}

export type Authenticate = ReturnType<typeof makeAuthenticate>;

/** Route guard for admin-only operations. */
export function requireAdmin(ctx: Context, next: Next): Promise<void> {
  if (actorOf(ctx).user.role !== 'admin') {
    throw forbidden('org_admin_required', 'Only organization admins can do this.');
  }
  return next();
}

/** Writes that change who a credential acts as (keys, users, plans) clear the resolved-credential cache. */
export function makeClearsCredentialCache(deps: Deps) {
  return async function clearsCredentialCache(_ctx: Context, next: Next): Promise<void> {
    await next();
    deps.credentialCache.clear();
  };
}
