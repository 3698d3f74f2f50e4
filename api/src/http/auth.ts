import type { Context, Next } from 'koa';
import { lookupCredential, presentedCredential } from '../auth/credentials.ts';
import type { Actor } from '../auth/credentials.ts';
import { LastUsed } from '../auth/last-used.ts';
import { lookupExchangeToken, recordAudit, recordAuditStatus } from '../auth/exchange-tokens.ts';
import { actingAs, admissionRefusal, assertCan, assertPerson, exchangeRefusal } from '../auth/policy.ts';
import type { Action, Admission } from '../auth/policy.ts';
import { badRequest, unauthorized } from '../lib/errors.ts';
import { EXCHANGE_TOKEN_PATTERN } from '../lib/secrets.ts';
import type { Deps } from './deps.ts';
import { secureSession, sessionCookieRefusal } from './session-cookie.ts';

export function actorOf(ctx: Context): Actor {
  const actor = ctx.state.actor as Actor | undefined;
  if (!actor) throw new Error('actorOf() used on a route without authenticate()');
  return actor;
}

/**
 * Resolves X-API-KEY, a CLI Bearer token or the web app's session cookie (the same token) into `ctx.state.actor`, or answers 401/403 with the spec's codes
 * (the rules are auth/policy.ts's; which credentials a path takes is the method matrix's, auth/method-matrix.ts).
 * Resolved credentials are cached for at most `AUTH_CACHE_SECONDS` (≤ 60, the spec's plan-check cache), and
 * forgotten in every process as soon as one of them changes a credential.
 *
 * `authenticate.callerOf(ctx)` is the same admission without a route: the MCP endpoint admits each /mcp request
 * with it, whatever its method, before any tool runs its REST route.
 */
export function makeAuthenticate(deps: Pick<Deps, 'db' | 'clock' | 'credentialCache' | 'config'>) {
  const lastUsed = new LastUsed(deps.db);

  /**
   * The request's credential, resolved and admitted (the endpoint's credential kinds, the plan rules, the key's
   * scopes), or the refusal thrown. Not async: a cached credential (nearly every request) is admitted without a
   * promise of its own. A throw reaches the error handler either way: koa-compose turns it into a rejection.
   */
  function admittedActor(ctx: Context, admission: Admission, now: Date): Actor | Promise<Actor> {
    const presented = presentedCredential(ctx.headers, secureSession(ctx, deps.config.requireHttps));
    if (presented === 'absent') throw unauthorized('credential_absent');
    if (presented === 'malformed') throw unauthorized('credential_malformed');
    if (presented === 'ambiguous') throw badRequest('credential_ambiguous', 'Send one credential: X-API-KEY or Authorization: Bearer, not both.');
    if (presented.fromCookie) {
      const refusal = sessionCookieRefusal(ctx, deps.config.publicUrl);
      if (refusal) throw refusal;
    }
    const cached = deps.credentialCache.get(presented.hash, now.getTime());
    if (cached) return admit(ctx, cached, admission);
    const generation = deps.credentialCache.generation;
    return lookupCredential(deps.db, presented, now).then((resolution) => {
      if (!resolution.ok) throw unauthorized(resolution.code);
      deps.credentialCache.set(presented.hash, resolution.actor, now.getTime(), generation);
      return admit(ctx, resolution.actor, admission);
    });
  }

  /** The checks that follow resolution: the endpoint's credential kinds, the plan rules, the key's scopes. */
  function admit(ctx: Context, actor: Actor, admission: Admission): Actor {
    const refusal = admissionRefusal(actor, admission, ctx);
    if (refusal) throw refusal;
    return actor;
  }

  /** The admitted caller acts as itself, or (X-Exchange-Token) as the member an admin's token names. */
  function proceed(ctx: Context, actor: Actor, now: Date, next: Next): Promise<void> {
    const exchange = ctx.headers['x-exchange-token'];
    if (exchange !== undefined) return actAsMember(ctx, actor, exchange, now, next);
    ctx.state.actor = actor;
    const touching = lastUsed.touch(actor, now);
    return touching ? touching.then(() => next()) : next();
  }

  /**
   * `X-Exchange-Token` (spec "Exchange token", CONTRACT §4): the admin's request acts as the token's member, on
   * the writes policy.ts allows. Each such request is audited with the member, the issuing admin and the
   * credential, before it runs (so nothing done on someone's behalf goes unrecorded) and with its status after.
   */
  async function actAsMember(ctx: Context, actor: Actor, header: string | string[], now: Date, next: Next): Promise<void> {
    const presented = typeof header === 'string' && EXCHANGE_TOKEN_PATTERN.test(header.trim()) ? header.trim() : null;
    const token = presented ? await lookupExchangeToken(deps.db, presented) : null;
    const refusal = exchangeRefusal(actor, ctx, token, now);
    if (refusal) throw refusal;
    const { row, member } = token!;
    ctx.state.actor = actingAs(actor, row, member!);
    const audit = await recordAudit(
      deps.db,
      { organizationUuid: actor.organization.uuid, action: 'exchange_token.used', actorUuid: member!.uuid, adminUuid: row.issued_by_uuid, credentialUuid: actor.credential.uuid, exchangeTokenUuid: row.uuid, method: ctx.method, path: ctx.path },
      now,
    );
    await lastUsed.touch(actor, now);
    let status = 500;
    try {
      await next();
      status = ctx.status;
    } catch (err) {
      status = (err as { status?: number }).status ?? 500;
      throw err;
    } finally {
      await recordAuditStatus(deps.db, audit, status);
    }
  }

  function authenticate(admission: Admission = {}) {
    // Not async: see admittedActor.
    return function requireCredential(ctx: Context, next: Next): Promise<void> {
      const now = deps.clock.now();
      const actor = admittedActor(ctx, admission, now);
      return actor instanceof Promise ? actor.then((admitted) => proceed(ctx, admitted, now, next)) : proceed(ctx, actor, now, next);
    };
  }

  /**
   * The admitted caller of a request no route serves (/mcp), as `authenticate()` would admit it, its last use
   * recorded. An exchange token is left to the routes the request goes on to (they audit each use).
   */
  async function callerOf(ctx: Context, admission: Admission = {}): Promise<Actor> {
    const now = deps.clock.now();
    const actor = await admittedActor(ctx, admission, now);
    await lastUsed.touch(actor, now);
    return actor;
  }

  return Object.assign(authenticate, { callerOf });
}

export type Authenticate = ReturnType<typeof makeAuthenticate>;

/** Route guard: the caller's role must allow `action` (auth/policy.ts); the spec's 403 otherwise. */
export function allow(action: Action) {
  return function allowed(ctx: Context, next: Next): Promise<void> {
    assertCan(actorOf(ctx), action);
    return next();
  };
}

/** Route guard: agent and organization keys act for no person; they may not answer check-ins or track a mood. */
export function requirePerson(ctx: Context, next: Next): Promise<void> {
  assertPerson(actorOf(ctx));
  return next();
}

/**
 * Writes that change who a credential acts as (keys, users, plans) invalidate the resolved-credential cache of
 * every process, after the write committed and before the answer goes out: once the client has its answer,
 * the other processes have been told.
 */
export function makeClearsCredentialCache(deps: Pick<Deps, 'credentialCache'>) {
  return async function clearsCredentialCache(_ctx: Context, next: Next): Promise<void> {
    await next();
    await deps.credentialCache.invalidate();
  };
}
