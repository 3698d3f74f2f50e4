import type { Actor } from '../../auth/credentials.ts';
import { bool } from '../../../lib/json.ts';
import { actorRequired, guestNotAllowed, missingScope, personOnly, planUpgradeRequired } from './errors.ts';
import { actsAsPerson, hasScope, isGuest } from './policy.ts';
import type { PlanScope } from './scopes.ts';

/** What the gate needs to know of a route. */
export interface GatedOperation {
  scope: PlanScope;
  person: boolean;
  personQuery: Record<string, string>;
  betaExempt: boolean;
}

/**
 * Steps 2–5 of every Plan call, in this order (the credential was step 1; the read-only switch and the minute
 * ceiling follow): the beta (402), guests (403), a person where one is needed (403 on person-only endpoints,
 * 400 actor_required for `member=me` and the like), the key's explicit scopes (403 insufficient_scope).
 */
export function admit(operation: GatedOperation, actor: Actor, query: Record<string, unknown>): void {
  if (!operation.betaExempt && !bool(actor.organization.plan_beta_enabled)) throw planUpgradeRequired();
  if (isGuest(actor)) throw guestNotAllowed();
  if (!actsAsPerson(actor)) {
    if (operation.person) throw personOnly();
    for (const [name, value] of Object.entries(operation.personQuery)) if (query[name] === value) throw actorRequired(name);
  }
  if (!hasScope(actor, operation.scope)) throw missingScope(operation.scope);
}
