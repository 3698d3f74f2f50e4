import type { Actor } from '../../auth/credentials.ts';
import { PLAN_SCOPES, scopeCovers } from './scopes.ts';
import type { PlanScope } from './scopes.ts';

/**
 * Every Plan rule about who the caller is: their role, what their credential is, and its scopes. Nothing else in
 * the Plan reads `actor.user.role` or the credential's kind.
 */
export type MemberRole = 'manager' | 'member';

/** Organization admins see and manage every board and project, and delete any project update. */
export const isOrgAdmin = (actor: Actor): boolean => actor.user.role === 'admin';

/** Guests cannot use Plan at all (403 guest_not_allowed). */
export const isGuest = (actor: Actor): boolean => actor.user.role === 'guest';

/** Personal keys and CLI Bearer tokens act as their owner; agent and organization keys act for no person. */
export const actsAsPerson = (actor: Actor): boolean => actor.credential.kind === 'bearer' || actor.credential.keyKind === 'personal';

/** An agent key is the agent itself: it names no other in X-Service-Agent-Name. */
export const isAgentKey = (actor: Actor): boolean => actor.credential.keyKind === 'agent';

/** Whether the key's explicit scopes (none: all) cover `scope`. */
export const hasScope = (actor: Actor, scope: PlanScope): boolean => scopeCovers(actor.credential.scopes, scope);

/** The Plan scopes a credential holds in effect (what GET /v1/plan/entitlements/ shows). */
export const effectiveScopes = (actor: Actor): PlanScope[] => PLAN_SCOPES.filter((scope) => hasScope(actor, scope));

/** A board or project is visible when org-wide, to its members, and to admins. */
export const canSee = (actor: Actor, visibility: string, role: MemberRole | null): boolean => visibility === 'org' || role !== null || isOrgAdmin(actor);

/** Its managers and the admins manage a board or project. */
export const canManage = (actor: Actor, role: MemberRole | null): boolean => isOrgAdmin(actor) || role === 'manager';

/**
 * Who a minute ceiling and an Idempotency-Key belong to: the person for personal keys and Bearer tokens (all of a
 * person's credentials share one budget), the credential itself for agent and organization keys.
 */
export const actorId = (actor: Actor): string => (actsAsPerson(actor) ? actor.user.uuid : actor.credential.uuid);
