import type { Context, Next } from 'koa';
import { actorOf } from '../../http/auth.ts';
import { forbidden } from '../../lib/errors.ts';
import type { Actor } from '../../auth/credentials.ts';

/** CONTRACT §3 roles: admin > manager > member > guest. */
export const isAdmin = (actor: Actor): boolean => actor.user.role === 'admin';
export const isManager = (actor: Actor): boolean => actor.user.role === 'admin' || actor.user.role === 'manager';
export const isGuest = (actor: Actor): boolean => actor.user.role === 'guest';

export const managerRequired = () => forbidden('org_manager_required', 'Only organization admins and managers can do this.');

/** Route guard: admins and managers (teams, check-in set-up, invitations). */
export function requireManager(ctx: Context, next: Next): Promise<void> {
  if (!isManager(actorOf(ctx))) throw managerRequired();
  return next();
}

/** Agent and organization keys act for no person: they may not answer check-ins or track a mood. */
export function requirePerson(ctx: Context, next: Next): Promise<void> {
  const actor = actorOf(ctx);
  if (actor.credential.kind === 'api_key' && actor.credential.keyKind !== 'personal') {
    throw forbidden('insufficient_scope', 'Agent and organization keys do not act as a person; use a personal key.');
  }
  return next();
}

